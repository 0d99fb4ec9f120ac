import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import type { JsonSchema } from '../http/json-schema.js';

/**
 * The text the input boundary lets through (http/input-boundary.ts): no C0 control character but
 * tab, line feed and carriage return. Written with \u escapes, which ECMAScript and Python read alike.
 */
export const BOUNDARY_TEXT_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F]*$';

/** An IPv4 address's number, 0 to 255, as the URL standard writes it (no leading zero). */
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';

/** A character a URL keeps as it is (RFC 3986 unreserved and sub-delims but ', which a query encodes), or %XX. */
const URL_CHARACTER = '([A-Za-z0-9._~!$&()*+,;=:@-]|%[0-9A-Fa-f]{2})';

/**
 * An absolute https URL as every route takes one, and no more (a narrower document, never a wider
 * one): a host name (its last label not a number, so never a malformed IPv4 address) or an IPv4
 * address, a port from 1 to 65535, a path, a query and a fragment of characters a URL keeps as they
 * are, so its length is the length checked. The routes also take a bracketed IPv6 host and letters a
 * URL percent-encodes (the descriptions say so); a pattern wide enough for those would also admit
 * text the URL standard refuses, so the document stays on the side every client is safe on.
 */
export const HTTPS_URL_PATTERN =
  '^https://' +
  `(([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*|(${OCTET}\\.){3}${OCTET})` +
  '(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?' +
  `(/(${URL_CHARACTER}|/)*)?(\\?(${URL_CHARACTER}|[/?])*)?(#(${URL_CHARACTER}|[/?])*)?$`;

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
