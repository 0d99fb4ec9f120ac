import { z } from '@corridor/config';
import type { JsonSchema } from '../http/json-schema.js';

/**
 * The OpenAPI 3.1 (JSON Schema 2020-12) form of a route family's zod schemas, so validation and
 * documentation are one definition. The named `components` become $refs to #/components/schemas.
 */

const ROOT = '__root';
type Io = 'input' | 'output';

/** zod's regexes for uuid, date-time and URLs are exact but unreadable; `format` says the same. */
function readable({ jsonSchema }: { jsonSchema: { format?: string; pattern?: string } }): void {
  if (jsonSchema.format === 'uuid' || jsonSchema.format === 'date-time' || jsonSchema.format === 'uri') {
    delete jsonSchema.pattern;
  }
}

export function zodOpenApi(components: Readonly<Record<string, z.ZodType>>) {
  function convert(root: z.ZodType | undefined, io: Io): Record<string, JsonSchema> {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
    if (root) registry.add(root, { id: ROOT });
    const { schemas } = z.toJSONSchema(registry, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'throw',
      uri: (id) => `#/components/schemas/${id}`,
      override: readable,
    });
    // Each schema sits inside the document, which already says its dialect and where it is.
    return Object.fromEntries(
      Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema as JsonSchema]),
    );
  }

  /**
   * A body's or query's schema as the document shows it: `output` for answers and queries (what
   * the values mean, e.g. per_page an integer with its default), `input` for bodies (what to send).
   */
  function jsonSchemaOf(schema: z.ZodType, io: Io = 'output'): JsonSchema {
    const converted = convert(schema, io)[ROOT];
    if (!converted) throw new Error('zod produced no schema');
    return converted;
  }

  /**
   * A query's schema for the document: each parameter as what it means (output: per_page an integer
   * with its default), required only when the caller must send it (input: per_page may be left out).
   */
  function querySchemaOf(schema: z.ZodObject): JsonSchema {
    const { required = [] } = jsonSchemaOf(schema, 'input');
    const { required: _withDefaults, ...meaning } = jsonSchemaOf(schema, 'output');
    return required.length > 0 ? { ...meaning, required } : meaning;
  }

  /** components.schemas of the route family. */
  const schemaComponents: Record<string, JsonSchema> = convert(undefined, 'output');

  return { jsonSchemaOf, querySchemaOf, schemaComponents };
}
