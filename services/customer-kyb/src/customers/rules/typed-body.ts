import type { DescField, DescMessage } from '@bufbuild/protobuf';
import { publicValueOf } from '@corridor/customer-json';

/**
 * How the rules read a typed body of customer_input.proto (decision 0025): the gateway converted
 * JSON types and words, so a property is a set field, a name in `null_fields` (sent as null), or
 * neither (omitted: seed 2.1 rule 2). Values come in the public vocabulary the rules and the stored
 * records share: an enum as its word, an int64 or a decimal as a number, a list as its entries.
 */
export interface TypedBody {
  readonly $typeName: string;
  readonly nullFields: readonly string[];
}

const fieldNamed = (schema: DescMessage, name: string) =>
  schema.fields.find((field) => field.name === name && field.name !== 'null_fields');

function valueOf(field: DescField, value: unknown): unknown {
  if (field.fieldKind !== 'message') return publicValueOf(field, value);
  // A list message (`owners`, `admin_comments`): its entries, typed.
  const [entries] = field.message.fields;
  return entries ? (value as Readonly<Record<string, unknown>>)[entries.localName] : undefined;
}

/** What the body holds as `name`: its value, null when sent as null, undefined when omitted. */
export function sent(schema: DescMessage, body: TypedBody, name: string): unknown {
  const field = fieldNamed(schema, name);
  const value = field ? (body as unknown as Readonly<Record<string, unknown>>)[field.localName] : undefined;
  if (field && value !== undefined) {
    const converted = valueOf(field, value);
    // UNSPECIFIED or a number this side does not know has no word: what the rules see as omitted.
    if (converted !== undefined) return converted;
  }
  return body.nullFields.includes(name) ? null : undefined;
}

/** A list property (`owners`, `documents`): its typed entries, null when sent as null, undefined when omitted. */
export function sentList<Entry>(
  body: TypedBody,
  name: string,
  list: { readonly entries: readonly Entry[] } | undefined,
): readonly Entry[] | null | undefined {
  return list?.entries ?? (body.nullFields.includes(name) ? null : undefined);
}

/** Whether the body holds `name` at all, a value or null. */
export const isSent = (schema: DescMessage, body: TypedBody, name: string) => sent(schema, body, name) !== undefined;

/** Names sent as null that are no field of the body's message (a gateway never sends one). */
export const unknownNulls = (schema: DescMessage, body: TypedBody) =>
  body.nullFields.filter((name) => fieldNamed(schema, name) === undefined);

/** Every property of the body, in the message's order: set fields as proto orders them, then those sent as null. */
export function sentProperties(schema: DescMessage, body: TypedBody): [string, unknown][] {
  const properties = new Map<string, unknown>();
  for (const field of schema.fields) {
    const value = sent(schema, body, field.name);
    if (value !== undefined && value !== null) properties.set(field.name, value);
  }
  for (const name of body.nullFields) if (!properties.has(name)) properties.set(name, null);
  return [...properties];
}
