import { zodOpenApi } from '../../floor/zod-schemas.js';
import { KYC_SESSION_COMPONENTS } from './responses.js';

/** The OpenAPI form of the KYC session routes' zod schemas, their components named once. */
export const {
  jsonSchemaOf,
  querySchemaOf,
  schemaComponents: kycSessionSchemaComponents,
} = zodOpenApi(KYC_SESSION_COMPONENTS);
