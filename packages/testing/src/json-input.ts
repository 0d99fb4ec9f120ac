import {
  create,
  ScalarType,
  type DescEnum,
  type DescField,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import { enumWords, NULL_FIELDS, type InputWords } from '@corridor/grpc';
import { describeJson, NOT_RECOGNISED, type FieldProblems } from '@corridor/validation';

/**
 * A JSON body as a typed input message and back (decision 0025), for specs: `inputOfJson` reads a
 * body as the gateway does (types and words only: a value's rules are the service's), so a spec
 * sends a service the body a platform sent; `jsonOfInput` turns a message back into the JSON object
 * it was read from, so a spec sees what crossed the wire as JSON. A property is the field of the
 * same proto name, set when sent with a value; one sent as null is named in `null_fields`; an
 * omitted one is neither. An array is a message holding one repeated `entries` field, so "sent as
 * []" and "omitted" differ too. The gateway itself reads with zod schemas made from the same
 * descriptors (decision 0064), held to this reader's recorded answers (input-corpus.json).
 */

/** The single repeated field of a list message (`entries`), when `descriptor` is one. */
function entriesOf(descriptor: DescMessage): DescField | undefined {
  const [only, ...rest] = descriptor.fields;
  return only && rest.length === 0 && only.name === 'entries' && only.fieldKind === 'list' ? only : undefined;
}

const nullFieldOf = (descriptor: DescMessage) => descriptor.fields.find((field) => field.name === NULL_FIELDS);

export interface InputOptions {
  readonly words: InputWords;
  readonly problems: FieldProblems;
  /** What a field must be, in words ("an email address"), when more is known than its proto type. */
  readonly expected?: (field: DescField) => string | undefined;
  /** Properties no input message has, with the reason a platform is given (read-only ones). */
  readonly refused?: (message: DescMessage, key: string) => string | undefined;
}

const joinPath = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

function quoted(text: string): string {
  const characters = [...text];
  return JSON.stringify(characters.length > 40 ? `${characters.slice(0, 40).join('')}…` : text);
}

function wordProblem(descriptor: DescEnum, value: unknown, words: InputWords): string {
  const list = enumWords(descriptor, words).map(({ word }) => word);
  const [first, second, ...more] = list;
  const expected = more.length === 0 && second !== undefined ? `${first} or ${second}` : `one of ${list.join(', ')}`;
  return `must be ${expected}; got ${typeof value === 'string' ? quoted(value) : describeJson(value)}`;
}

/** One scalar or enum value, or undefined after recording its problem at `path`. */
function valueOf(field: DescField, value: unknown, path: string, options: InputOptions): unknown {
  const problem = (text: string) => {
    options.problems.add(path, text);
    return undefined;
  };
  const expected = options.expected?.(field);
  const typeProblem = (fallback: string) => problem(`must be ${expected ?? fallback}, got ${describeJson(value)}`);
  if (field.fieldKind === 'enum') {
    const match = enumWords(field.enum, options.words).find(({ word }) => word === value);
    return match ? match.number : problem(wordProblem(field.enum, value, options.words));
  }
  if (field.fieldKind !== 'scalar') return problem(NOT_RECOGNISED);
  switch (field.scalar) {
    case ScalarType.STRING:
      if (options.words.isDecimal(field)) return typeof value === 'number' ? String(value) : typeProblem('a number');
      return typeof value === 'string' ? value : typeProblem('a string');
    case ScalarType.BOOL:
      return typeof value === 'boolean' ? value : typeProblem('true or false');
    case ScalarType.INT64:
      if (typeof value !== 'number') return typeProblem('a whole number');
      // A larger number was already rounded by JSON.parse: it is not what was sent.
      return Number.isSafeInteger(value) ? BigInt(value) : problem(`must be a whole number (got ${value})`);
    default:
      return problem(NOT_RECOGNISED);
  }
}

/** A JSON array as a list message, each entry an input message or a string. */
function listOf(list: DescMessage, value: unknown, path: string, options: InputOptions, field: DescField) {
  const entries = entriesOf(list);
  if (!entries || entries.fieldKind !== 'list') return undefined;
  if (!Array.isArray(value)) {
    options.problems.add(path, `must be ${options.expected?.(field) ?? 'an array'}, got ${describeJson(value)}`);
    return undefined;
  }
  const converted = value.map((entry: unknown, index) => {
    const at = joinPath(path, index);
    if (entries.listKind === 'message') return readInput(entries.message, entry, at, options);
    if (typeof entry === 'string') return entry;
    options.problems.add(at, `must be a string, got ${describeJson(entry)}`);
    return undefined;
  });
  return { [entries.localName]: converted };
}

function readInput(descriptor: DescMessage, json: unknown, path: string, options: InputOptions): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    options.problems.add(path, `must be an object, got ${describeJson(json)}`);
    return undefined;
  }
  const init: Record<string, unknown> = {};
  const nulls: string[] = [];
  const nullField = nullFieldOf(descriptor);
  for (const [key, value] of Object.entries(json)) {
    const at = joinPath(path, key);
    const refusal = options.refused?.(descriptor, key);
    const field = descriptor.fields.find((candidate) => candidate.name === key && candidate !== nullField);
    if (refusal !== undefined || !field) {
      options.problems.add(at, refusal ?? NOT_RECOGNISED);
      continue;
    }
    if (value === null) {
      if (nullField) nulls.push(key);
      else options.problems.add(at, 'must not be null');
      continue;
    }
    const converted =
      field.fieldKind === 'message'
        ? entriesOf(field.message)
          ? listOf(field.message, value, at, options, field)
          : readInput(field.message, value, at, options)
        : valueOf(field, value, at, options);
    if (converted !== undefined) init[field.localName] = converted;
  }
  if (nullField && nulls.length > 0) init[nullField.localName] = nulls;
  return init;
}

/**
 * A JSON body as the input message `descriptor`, or undefined when any property has the wrong JSON
 * type, is unknown or refused, or holds a word outside its enum: each problem is in `problems`, under
 * its path (`owners.1.ownership_percentage`).
 */
export function inputOfJson<Desc extends DescMessage>(
  descriptor: Desc,
  json: unknown,
  options: InputOptions & { readonly path?: string },
): MessageShape<Desc> | undefined {
  const before = options.problems.isEmpty;
  const init = readInput(descriptor, json, options.path ?? '', options);
  if (!before || !options.problems.isEmpty || init === undefined) return undefined;
  return create(descriptor, init as MessageInitShape<Desc>);
}

/** An input message as the JSON object it was read from: set fields, then those sent as null. */
export function jsonOfInput(
  descriptor: DescMessage,
  message: Readonly<Record<string, unknown>>,
  words: InputWords,
): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  const nullField = nullFieldOf(descriptor);
  for (const field of descriptor.fields) {
    const value = message[field.localName];
    if (field === nullField || value === undefined) continue;
    if (field.fieldKind === 'enum') {
      const match = enumWords(field.enum, words).find(({ number }) => number === value);
      // UNSPECIFIED or a number this side does not know: no word, so what the rules see as absent.
      if (match) json[field.name] = match.word;
    } else if (field.fieldKind === 'message') {
      const entries = entriesOf(field.message);
      const inner = value as Readonly<Record<string, unknown>>;
      if (entries?.fieldKind === 'list' && Array.isArray(inner[entries.localName])) {
        const items = inner[entries.localName] as readonly unknown[];
        json[field.name] =
          entries.listKind === 'message'
            ? items.map((item) => jsonOfInput(entries.message, item as Readonly<Record<string, unknown>>, words))
            : [...items];
      } else json[field.name] = jsonOfInput(field.message, inner, words);
    } else if (field.fieldKind === 'scalar') {
      if (typeof value === 'bigint') json[field.name] = Number(value);
      else if (field.scalar === ScalarType.STRING && words.isDecimal(field)) json[field.name] = Number(value);
      else json[field.name] = value;
    }
  }
  const nulls = nullField ? message[nullField.localName] : undefined;
  if (Array.isArray(nulls)) {
    for (const name of nulls) {
      // A name is a platform's key: `__proto__` must stay a property, not a prototype.
      if (typeof name === 'string')
        Object.defineProperty(json, name, { value: null, enumerable: true, writable: true, configurable: true });
    }
  }
  return json;
}
