import type { JsonSchema } from '../http/json-schema.js';
import { zodOpenApi } from '../floor/zod-schemas.js';
import { ADMIN_MONEY_COMPONENTS } from './money-schemas.js';

const converted = zodOpenApi(ADMIN_MONEY_COMPONENTS);

/** The admin routes' zod schemas as the admin document shows them; payments' named schemas as $refs. */
export const { jsonSchemaOf, querySchemaOf } = converted;

/** The named schemas of the admin API's own (those of payments are the public document's). */
export const adminMoneySchemaComponents: Record<string, JsonSchema> = Object.fromEntries(
  ['MidRate', 'FeeRule'].map((name) => {
    const schema = converted.schemaComponents[name];
    if (!schema) throw new Error(`zod produced no schema ${name}`);
    return [name, schema];
  }),
);
