import { readFile } from 'node:fs/promises';
import { SCHEMA_FILE, schemaSource } from './schema-source.js';

describe('the generated types', () => {
  it('are what the gateway document generates now (else run `pnpm --filter @corridor/sdk generate` and commit)', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    expect(await schemaSource()).toBe(committed);
  });
});
