import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import type { JsonSchema } from './json-schema.js';

/**
 * The text the input boundary lets through (http/input-boundary.ts): no C0 control character but
 * tab, line feed and carriage return. Written with \u escapes, which ECMAScript and Python read alike.
 */
export const BOUNDARY_TEXT_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F]*$';

/** An IPv4 address's number, 0 to 255, as the URL standard writes it (no leading zero). */
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';

/**
 * A character of a URL's path, query or fragment as the routes take it: anything but a space or a
 * control character (the URL standard percent-encodes the rest, e.g. an apostrophe or a non-ASCII letter).
 */
const URL_CHARACTER =
  '[^\\u0000-\\u0020\\u007F-\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF]';

/**
 * An absolute https URL as the routes take one (notification's SSRF guard for webhooks, the
 * payments routes' redirect_url: the URL standard's parser, https, a host): the scheme in any case,
 * no user name or password, a host that is a name (its last label not a number, which the URL
 * standard would read as a malformed IPv4 address), an IPv4 address or a bracketed IPv6 one, a
 * port from 1 to 65535, then a path, query and fragment without spaces or control characters.
 * What no pattern can say is in the descriptions: webhook hosts must resolve to public addresses.
 */
export const HTTPS_URL_PATTERN =
  '^[Hh][Tt][Tt][Pp][Ss]://' +
  `(([A-Za-z0-9_-]+\\.)*[A-Za-z_][A-Za-z0-9_-]*\\.?|(${OCTET}\\.){3}${OCTET}|\\[[0-9A-Fa-f:.]+\\])` +
  '(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?' +
  `([/?#]${URL_CHARACTER}*)?$`;

type Node = SchemaObject | ReferenceObject;

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

/** A string the schema leaves free: no pattern, format, enum or const of its own already bounds it. */
function isFreeText(schema: SchemaObject): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return (
    types.includes('string') &&
    schema.pattern === undefined &&
    schema.format === undefined &&
    schema.enum === undefined &&
    schema.const === undefined
  );
}

/**
 * A request schema as the gateway really takes it: every free text carries the boundary's pattern,
 * so the document says what is refused with 422 instead of letting a client (or a fuzzer) find out.
 * $refs are left as they are: request bodies are written inline.
 */
export function refusingControlCharacters<S extends Node>(schema: S): S {
  const visit = (node: Node): Node => {
    if ('$ref' in node) return node;
    const copy: SchemaObject = { ...node };
    if (isFreeText(copy)) copy.pattern = BOUNDARY_TEXT_PATTERN;
    // Keys are text the boundary reads too.
    const types = Array.isArray(copy.type) ? copy.type : [copy.type];
    if (types.includes('object') && copy.propertyNames === undefined) {
      copy.propertyNames = { pattern: BOUNDARY_TEXT_PATTERN };
    }
    if (copy.properties) {
      copy.properties = Object.fromEntries(Object.entries(copy.properties).map(([key, value]) => [key, visit(value)]));
    }
    if (copy.items) copy.items = visit(copy.items);
    if (copy.additionalProperties && typeof copy.additionalProperties === 'object') {
      copy.additionalProperties = visit(copy.additionalProperties);
    }
    for (const list of SUBSCHEMA_LISTS) {
      const subschemas = copy[list] as Node[] | undefined;
      if (subschemas) (copy as Record<string, unknown>)[list] = subschemas.map(visit);
    }
    return copy;
  };
  return visit(schema) as S;
}

/** The components.schemas names the schemas refer to ($ref), directly. */
export function schemasNamedBy(schemas: readonly (JsonSchema | undefined)[]): Set<string> {
  const names = JSON.stringify(schemas).matchAll(/"#\/components\/schemas\/([^"]+)"/g);
  return new Set([...names].map(([, name = '']) => name));
}
