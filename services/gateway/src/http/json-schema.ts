import type { ComponentsObject, ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';

/** A JSON Schema (the 2020-12 dialect OpenAPI 3.1 uses) of a request or response body. */
export type JsonSchema = SchemaObject;

/** A pointer to a shared part of the document, e.g. ref('schemas', 'Error'). */
export const ref = (section: keyof ComponentsObject, name: string): ReferenceObject => ({
  $ref: `#/components/${section}/${name}`,
});
