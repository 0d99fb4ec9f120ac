import { fileURLToPath } from 'node:url';
import { openApiDocument } from '@corridor/gateway/dist/openapi/document.js';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';

/** Where the generated types live, committed: the SDK builds without a gateway at hand. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../src/generated/schema.ts', import.meta.url));

/**
 * The gateway's default token budget, which its document's description quotes
 * (services/gateway/src/config.ts TOKEN_REQUESTS_PER_MINUTE): the document as a fresh gateway serves it.
 */
const TOKEN_REQUESTS_PER_MINUTE = 30;

/**
 * The text of src/generated/schema.ts: the document the gateway builds (the one it serves at
 * /api/external/openapi.json), through openapi-typescript, formatted as the repository's Prettier
 * formats it so `prettier --check` and the no-diff spec agree.
 */
export async function schemaSource(): Promise<string> {
  const document = openApiDocument({ tokenRequestsPerMinute: TOKEN_REQUESTS_PER_MINUTE });
  const ast = await openapiTS(structuredClone(document) as unknown as OpenAPI3, { silent: true });
  const header = `${COMMENT_HEADER}// Generated from the gateway's OpenAPI document by \`pnpm --filter @corridor/sdk generate\`.\n\n`;
  const text = header + astToString(ast);
  const config = await resolveConfig(SCHEMA_FILE);
  return format(text, { ...config, filepath: SCHEMA_FILE });
}
