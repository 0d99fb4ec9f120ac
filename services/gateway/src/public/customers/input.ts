import {
  create,
  ScalarType,
  type DescEnum,
  type DescField,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import { z } from '@corridor/config';
import { CustomerInputSchema, OwnerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { REFUSED_CUSTOMER_PROPERTIES, REFUSED_OWNER_PROPERTIES } from '@corridor/contracts/customer-words';
import { enumWords, NULL_FIELDS } from '@corridor/grpc';
import { describeJson, isJsonObject, NOT_RECOGNISED } from '@corridor/validation';
import { readBody, requiredJsonObject } from '../../http/input.js';
import { CUSTOMER_FIELDS, OWNER_FIELDS, type FieldSpec } from './fields.js';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';

/**
 * A customer route's JSON body as its typed message of customer_input.proto (decision 0025), read
 * with zod like every other body (decision 0064): each message's schema is made from its descriptor,
 * so a field is declared once, in the proto. Only JSON types and words are checked here, each problem
 * named by its path (422 VALIDATION_FAILED); the rules on values (required fields, fields of the
 * other type, formats, consistency, locks) are customer-kyb's, which reports all of them at once.
 */

/** Properties the API answers but never accepts, and where a platform sets them instead. */
const READ_ONLY: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map([
  [CustomerInputSchema.typeName, REFUSED_CUSTOMER_PROPERTIES],
  [OwnerInputSchema.typeName, REFUSED_OWNER_PROPERTIES],
]);

const ALL_CUSTOMER_FIELDS: Readonly<Record<string, FieldSpec>> = {
  ...CUSTOMER_FIELDS.business,
  ...CUSTOMER_FIELDS.individual,
};

/** What a data field must be, in the words customer-kyb uses for the same problem. */
function expectedOfSpec(spec: FieldSpec | undefined): string | undefined {
  if (!spec) return undefined;
  if (spec.format === 'email') return 'an email address';
  if (spec.format === 'date') return 'a date as YYYY-MM-DD';
  if (spec.format === 'uri') return 'an http or https URI';
  if (spec.type === 'integer') return `a whole number of at least ${spec.minimum ?? 0}`;
  if (spec.type === 'number') return `a number from ${spec.minimum ?? 0} to ${spec.maximum ?? 100}`;
  // The only string enum that is no proto enum: assigned country codes.
  if (spec.type === 'string' && spec.enum) return 'an ISO 3166-1 alpha-2 country code';
  return undefined;
}

function expectedOf(field: DescField): string | undefined {
  if (field.parent.typeName === CustomerInputSchema.typeName) {
    if (field.name === 'owners') return 'an array of owners';
    return expectedOfSpec(ALL_CUSTOMER_FIELDS[field.name]);
  }
  if (field.parent.typeName === OwnerInputSchema.typeName) {
    if (field.name === 'id') return "the owner's id (a uuid)";
    return expectedOfSpec(OWNER_FIELDS[field.name]);
  }
  return undefined;
}

function refused(message: DescMessage, key: string): string | undefined {
  const reasons = READ_ONLY.get(message.typeName);
  return reasons && Object.hasOwn(reasons, key) ? reasons[key] : undefined;
}

/** A value of the wrong JSON type, named as customer-kyb names it. */
const wrongType =
  (expected: string) =>
  (issue: { readonly input?: unknown }): string =>
    `must be ${expected}, got ${describeJson(issue.input)}`;

/** What was sent instead of a word: at most 40 characters of it, or its JSON type. */
function sentWord(value: unknown): string {
  if (typeof value !== 'string') return describeJson(value);
  const characters = [...value];
  return JSON.stringify(characters.length > 40 ? `${characters.slice(0, 40).join('')}…` : value);
}

/** One of an enum's public words, as its proto value. */
function wordSchema(descriptor: DescEnum) {
  const words = enumWords(descriptor, CUSTOMER_INPUT_WORDS);
  const list = words.map(({ word }) => word);
  const [first, second, ...more] = list;
  const expected = more.length === 0 && second !== undefined ? `${first} or ${second}` : `one of ${list.join(', ')}`;
  const numbers = new Map(words.map(({ word, number }) => [word, number]));
  return z
    .enum(list, { error: (issue) => `must be ${expected}; got ${sentWord(issue.input)}` })
    .transform((word) => numbers.get(word));
}

/**
 * A JSON number, by its JSON type alone: z.number() refuses Infinity, which is what JSON.parse makes
 * of 1e400, and the range of a number is customer-kyb's to check.
 */
const isNumber = (value: unknown): value is number => typeof value === 'number';

/** An array: a message holding one repeated `entries` field (decision 0025), so [] differs from none. */
function listSchema(list: DescMessage, expected: string | undefined): z.ZodType {
  const [entries, ...rest] = list.fields;
  if (entries?.fieldKind !== 'list' || entries.name !== 'entries' || rest.length > 0)
    throw new TypeError(`${list.typeName} is no list of entries`);
  let entry: z.ZodType;
  if (entries.listKind === 'message') entry = inputSchemaOf(entries.message);
  else if (entries.listKind === 'scalar' && entries.scalar === ScalarType.STRING)
    entry = z.string({ error: wrongType('a string') });
  else throw new TypeError(`${list.typeName} lists no JSON values`);
  return z.array(entry, { error: wrongType(expected ?? 'an array') }).transform((values) => ({
    [entries.localName]: values,
  }));
}

/** The schema of a field's value (never null: a null is its message's to record). */
function valueSchema(field: DescField): z.ZodType {
  const expected = expectedOf(field);
  if (field.fieldKind === 'enum') return wordSchema(field.enum);
  if (field.fieldKind === 'message') return listSchema(field.message, expected);
  if (field.fieldKind !== 'scalar') throw new TypeError(`${field.parent.typeName}.${field.name} is no JSON value`);
  switch (field.scalar) {
    case ScalarType.STRING:
      return CUSTOMER_INPUT_WORDS.isDecimal(field)
        ? z.custom<number>(isNumber, { error: wrongType(expected ?? 'a number') }).transform(String)
        : z.string({ error: wrongType(expected ?? 'a string') });
    case ScalarType.BOOL:
      return z.boolean({ error: wrongType(expected ?? 'true or false') });
    case ScalarType.INT64:
      return z
        .custom<number>(Number.isSafeInteger, {
          // A larger number was already rounded by JSON.parse: it is not what was sent.
          error: (issue) =>
            isNumber(issue.input)
              ? `must be a whole number (got ${issue.input})`
              : wrongType(expected ?? 'a whole number')(issue),
        })
        .transform(BigInt);
    default:
      throw new TypeError(`${field.parent.typeName}.${field.name} has no JSON reading`);
  }
}

/** Each message's schema, made on its first read. */
const schemas = new Map<DescMessage, z.ZodType>();

/**
 * An input message's schema, made from its descriptor: each property is the field of the same proto
 * name, a property sent as null is named in `null_fields` and one omitted is neither (seed 2.1 rule
 * 2). The properties are read in the body's order, each problem at its path, so the 422's first
 * message and the order of its `errors` follow the body (a zod object would name its own shape's
 * order first and unknown keys last), and `null_fields` lists the nulls as they were sent.
 */
function inputSchemaOf<Desc extends DescMessage>(descriptor: Desc): z.ZodType<MessageShape<Desc>> {
  const made = schemas.get(descriptor);
  if (made) return made as z.ZodType<MessageShape<Desc>>;
  const nullField = descriptor.fields.find((field) => field.name === NULL_FIELDS);
  if (!nullField) throw new TypeError(`${descriptor.typeName} has no ${NULL_FIELDS}`);
  const fields = new Map(
    descriptor.fields
      .filter((field) => field !== nullField)
      .map((field) => [field.name, { field, schema: valueSchema(field) }] as const),
  );
  const schema = z
    .custom<Readonly<Record<string, unknown>>>(isJsonObject, { error: wrongType('an object') })
    .transform((json, context) => {
      const init: Record<string, unknown> = {};
      const nulls: string[] = [];
      let failed = false;
      for (const [key, value] of Object.entries(json)) {
        const refusal = refused(descriptor, key);
        const property = fields.get(key);
        if (refusal !== undefined || !property) {
          context.addIssue({ code: 'custom', path: [key], message: refusal ?? NOT_RECOGNISED, input: value });
          failed = true;
        } else if (value === null) nulls.push(key);
        else {
          const result = property.schema.safeParse(value);
          if (result.success) init[property.field.localName] = result.data;
          else {
            failed = true;
            for (const issue of result.error.issues)
              context.addIssue({ code: 'custom', path: [key, ...issue.path], message: issue.message, input: value });
          }
        }
      }
      if (failed) return z.NEVER;
      if (nulls.length > 0) init[nullField.localName] = nulls;
      return create(descriptor, init as MessageInitShape<Desc>);
    });
  schemas.set(descriptor, schema);
  return schema;
}

/** The body as `descriptor`: a JSON object is required (requiredJsonObject), then its types and words. */
export function readInput<Desc extends DescMessage>(descriptor: Desc, body: unknown): MessageShape<Desc> {
  return readBody(inputSchemaOf(descriptor), requiredJsonObject(body));
}
