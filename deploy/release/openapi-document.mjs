// Prints the public OpenAPI document as the built gateway serves it (services/gateway/dist), with
// its configuration's defaults: what the OpenAPI gate compares and what a release records.
import { gatewayConfigShape } from '../../services/gateway/dist/config.js';
import { openApiDocument } from '../../services/gateway/dist/openapi/document.js';

const tokenRequestsPerMinute = gatewayConfigShape.TOKEN_REQUESTS_PER_MINUTE.parse(undefined);
process.stdout.write(`${JSON.stringify(openApiDocument({ tokenRequestsPerMinute }), null, 2)}\n`);
