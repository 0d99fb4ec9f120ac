import {
  create,
  ScalarType,
  type DescField,
  type JsonObject,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import type { GenEnum, GenMessage } from '@bufbuild/protobuf/codegenv2';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';
import {
  BusinessDataSchema,
  IndividualDataSchema,
  OwnerDataSchema,
  type BusinessData,
  type Customer,
  type IndividualData,
  type Owner,
  type OwnerData,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { enumWords, protoVocabulary, type ProtoVocabulary } from '@corridor/grpc';

/**
 * A customer's and an owner's data fields as the public API writes them (decision 0061): every
 * field of the data message in its order, keyed by its proto name (the public name), null when
 * unset; enums as their public words, int64 and decimal text as JSON numbers. customer-kyb stores
 * the same JSON, so `dataOfJson` reads a stored record into the typed message and `jsonOfData`
 * writes it back, and what the gateway answered from the deprecated `Struct fields` is exactly
 * `jsonOfData` of the typed data.
 */

type DataSchema = GenMessage<IndividualData> | GenMessage<BusinessData> | GenMessage<OwnerData>;

/**
 * A set field's value as the public JSON writes it: an enum as its word (undefined for UNSPECIFIED or
 * a number this side does not know), int64 and decimal text as a JSON number.
 */
export function publicValueOf(field: DescField, value: unknown): JsonValue | undefined {
  if (field.fieldKind === 'enum') {
    return enumWords(field.enum, CUSTOMER_INPUT_WORDS).find(({ number }) => number === value)?.word;
  }
  if (typeof value === 'bigint') {
    if (!Number.isSafeInteger(Number(value))) throw new RangeError(`${field.name} ${value} is no exact JSON number`);
    return Number(value);
  }
  if (CUSTOMER_INPUT_WORDS.isDecimal(field)) return Number(value);
  return value as JsonValue;
}

function numberOf(field: DescField & { fieldKind: 'enum' }, word: JsonValue): number {
  const match = enumWords(field.enum, CUSTOMER_INPUT_WORDS).find((candidate) => candidate.word === word);
  if (!match) throw new RangeError(`${JSON.stringify(word)} is not a ${field.enum.typeName} word`);
  return match.number;
}

function valueOfJson(field: DescField, value: JsonValue): unknown {
  if (field.fieldKind === 'enum') return numberOf(field, value);
  if (field.fieldKind === 'scalar' && field.scalar === ScalarType.INT64) return BigInt(value as number);
  if (CUSTOMER_INPUT_WORDS.isDecimal(field)) return String(value);
  return value;
}

/** The set fields of a data message as public JSON, in its order (none when `data` is unset). */
export function setFieldsJson<Desc extends DataSchema>(schema: Desc, data: MessageShape<Desc> | undefined): JsonObject {
  const json: JsonObject = {};
  const values = (data ?? {}) as Readonly<Record<string, unknown>>;
  for (const field of schema.fields) {
    const value = values[field.localName];
    if (value === undefined) continue;
    const answered = publicValueOf(field, value);
    if (answered === undefined) throw new RangeError(`${schema.typeName}.${field.name} ${value} has no public word`);
    json[field.name] = answered;
  }
  return json;
}

/** The public JSON of a data message: every field, null where unset. */
export function jsonOfData<Desc extends DataSchema>(schema: Desc, data: MessageShape<Desc>): JsonObject {
  const set = setFieldsJson(schema, data);
  return Object.fromEntries(schema.fields.map(({ name }) => [name, set[name] ?? null]));
}

/** A stored record of public names as the data message; null, absent and other names are unset. */
export function dataOfJson<Desc extends DataSchema>(
  schema: Desc,
  json: Readonly<Record<string, JsonValue | undefined>>,
): MessageShape<Desc> {
  const init: Record<string, unknown> = {};
  for (const field of schema.fields) {
    const value = json[field.name];
    if (value !== null && value !== undefined) init[field.localName] = valueOfJson(field, value);
  }
  return create(schema, init as MessageInitShape<Desc>);
}

/** A customer's data fields as answered: the individual's or the business's, whichever it holds. */
export function customerDataJson(customer: Customer): JsonObject {
  const { data } = customer;
  if (data.case === 'individual') return jsonOfData(IndividualDataSchema, data.value);
  if (data.case === 'business') return jsonOfData(BusinessDataSchema, data.value);
  throw new RangeError(`customer ${customer.id} carries no typed data`);
}

/** An owner's data fields as answered. */
export function ownerDataJson(owner: Owner): JsonObject {
  if (!owner.data) throw new RangeError(`owner ${owner.id} carries no typed data`);
  return jsonOfData(OwnerDataSchema, owner.data);
}

/** A customer enum's public words (business, FULL, VERIFIED), as the API and every reader of customer-kyb spell them. */
export const customerVocabulary = <E extends number>(descriptor: GenEnum<E>): ProtoVocabulary<E> =>
  protoVocabulary(descriptor, CUSTOMER_INPUT_WORDS.casingOf(descriptor), 'customer-kyb');

/**
 * An enum of a customer event as its word (decision 0061 step b). UNSPECIFIED is the deprecated word
 * written beside it: every event of customer-kyb 0.1.0 carries words only, and an individual's
 * `scope` is UNSPECIFIED by meaning (its word is empty). A number this side does not know is a defect.
 */
export function eventWordOf<E extends number>(
  vocabulary: ProtoVocabulary<E>,
  value: E,
  deprecatedWord: string,
  what: string,
): string {
  return value === 0 ? deprecatedWord : vocabulary.toWord(value, what);
}
