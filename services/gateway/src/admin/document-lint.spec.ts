import { redoclyLint } from '../../test/openapi/redocly.fixture.js';
import { adminOpenApiDocument } from './document.js';

// The same lint as the public document's (openapi/document-lint.spec.ts): one way to build, one bar.
describe('the admin OpenAPI document passes Redocly lint with its recommended rules (root redocly.yaml)', () => {
  it('has no error and no warning', async () => {
    const summary = await redoclyLint(adminOpenApiDocument());
    expect(summary).toMatch(/Your API description is valid/);
    expect(summary).not.toMatch(/warning|error/i);
  }, 60_000);
});
