import { zodOpenApi } from '../../floor/zod-schemas.js';
import { PAYMENT_COMPONENTS } from './response-schemas.js';

/** The OpenAPI form of the payments routes' zod schemas, their components named once. */
export const {
  jsonSchemaOf,
  querySchemaOf,
  schemaComponents: paymentSchemaComponents,
} = zodOpenApi(PAYMENT_COMPONENTS);
