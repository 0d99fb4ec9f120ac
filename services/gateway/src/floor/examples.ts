import type {
  ContentObject,
  PathItemObject,
  PathsObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import type { JsonSchema } from '../http/json-schema.js';

/**
 * The example of a body as the document shows it (issue 31 part 4): Swagger UI's "Try it out"
 * sends the media type's `example`, so every body and answer carries one. A schema's own first
 * `examples` entry is taken as written (request bodies are written by hand, consistent with a fresh
 * sandbox); an answer without one gets an example built from its schema, every field filled from
 * its own `examples`, `const`, `enum`, `default` or format. document.spec.ts validates each against
 * its schema, and Redocly's no-invalid-media-type-examples does again.
 */

type Node = SchemaObject | ReferenceObject;

/** Values for the patterns a response field carries, where no `examples` says one. */
const PATTERN_EXAMPLES: Readonly<Record<string, string>> = {
  '^whsec_[A-Za-z0-9_-]{43}$': 'whsec_Q2hhbmdlIG1lOiB0aGlzIGlzIGFuIGV4YW1wbGUgc2V',
  '^\\d+$': '250000000',
  '^3\\.1\\.': '3.1.1',
  '^[A-Za-z0-9._:-]{1,128}$': '5f0c3e1a-8b2d-4c6e-9f1a-2b3c4d5e6f70',
};

const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  uuid: '5f0c3e1a-8b2d-4c6e-9f1a-2b3c4d5e6f70',
  'date-time': '2026-12-01T09:00:00.000Z',
  date: '2026-12-01',
  uri: 'https://example.com/corridor',
  email: 'finance@example.com',
};

const MAX_DEPTH = 12;

function typesOf(schema: SchemaObject): string[] {
  if (Array.isArray(schema.type)) return schema.type.filter((type) => type !== 'null');
  return schema.type ? [schema.type] : [];
}

function stringExample(schema: SchemaObject): string {
  if (schema.format && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format] as string;
  if (schema.pattern && PATTERN_EXAMPLES[schema.pattern]) return PATTERN_EXAMPLES[schema.pattern] as string;
  const text = 'example';
  return text.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? text.length);
}

/** An example of `schema`, $refs read from `schemas` (components.schemas). */
export function exampleOf(node: Node, schemas: Readonly<Record<string, Node>>, depth = 0): unknown {
  if ('$ref' in node) {
    const target = schemas[(node.$ref ?? '').split('/').pop() ?? ''];
    if (!target) throw new Error(`no example: ${node.$ref} is not a schema of the document`);
    return exampleOf(target, schemas, depth);
  }
  const schema = node;
  if (depth > MAX_DEPTH) return null;
  const own = (schema.examples as unknown[] | undefined)?.[0] ?? schema.example;
  if (own !== undefined) return own;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum.find((value) => value !== null) ?? null;
  if (schema.default !== undefined) return schema.default;
  if (schema.allOf) {
    // Each part's example, later parts narrowing earlier ones (Error, then its code's enum).
    return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part, schemas, depth + 1)));
  }
  const branch = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (branch) return exampleOf(branch, schemas, depth + 1);
  if (schema.type === 'null') return null;
  const [type] = typesOf(schema);
  switch (type) {
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      return Object.fromEntries(properties.map(([name, value]) => [name, exampleOf(value, schemas, depth + 1)]));
    }
    case 'array': {
      const items = schema.items ? [exampleOf(schema.items, schemas, depth + 1)] : [];
      while (items.length < (schema.minItems ?? 0)) items.push(items[0]);
      return items;
    }
    case 'string':
      return stringExample(schema);
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : 1);
    case 'boolean':
      return true;
    default:
      return Array.isArray(schema.type) && schema.type.includes('null') ? null : {};
  }
}

/** `schema` with `example` as its first `examples` entry: how a route states its body's example. */
export const withExample = (schema: JsonSchema, example: unknown): JsonSchema => ({ ...schema, examples: [example] });

const MEDIA_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The paths written by hand (token endpoint, probes, the document) with an example on every body
 * and answer that has none, built from its schema.
 */
export function withExamples(paths: PathsObject, schemas: Readonly<Record<string, Node>>): PathsObject {
  const filled = (content: ContentObject | undefined): ContentObject | undefined =>
    content &&
    Object.fromEntries(
      Object.entries(content).map(([type, media]) => [
        type,
        media.example === undefined && media.schema ? { ...media, example: exampleOf(media.schema, schemas) } : media,
      ]),
    );
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]: [string, PathItemObject]) => {
      const copy: PathItemObject = { ...item };
      for (const method of MEDIA_METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const body = operation.requestBody;
        copy[method] = {
          ...operation,
          ...(body && 'content' in body ? { requestBody: { ...body, content: filled(body.content) ?? {} } } : {}),
          responses: Object.fromEntries(
            Object.entries(operation.responses ?? {}).map(([status, response]: [string, ResponseObject]) => [
              status,
              'content' in response ? { ...response, content: filled(response.content) } : response,
            ]),
          ),
        };
      }
      return [path, copy];
    }),
  );
}

/**
 * Each body's example is what /docs "Try it out" sends: valid as written, its ids those of the
 * examples of the answers (a fresh sandbox's own ids replace them; test/e2e/openapi-examples sends each).
 */
export const EXAMPLE_IDS = {
  customer: '6c1d7a9e-52f0-4c8e-9d1a-3f6b2e8c0a11',
  owner: '7e2f8b0a-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
  file: '9b4cad2e-3d5f-4a7b-9c1d-2e3f4a5b6c7d',
  backFile: '9b4cad2e-5f7a-4b9c-8d3e-4f5a6b7c8d9e',
  transaction: '3a7e9c2b-1d4f-4e6a-8b0c-5d2e7f9a1b3c',
} as const;
