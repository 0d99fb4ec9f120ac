import { writeFile } from 'node:fs/promises';
import { SCHEMA_FILE, schemaSource } from './schema-source.js';

// `pnpm --filter @corridor/sdk generate`: rewrites the committed types from the gateway's document.
await writeFile(SCHEMA_FILE, await schemaSource());
console.log(`wrote ${SCHEMA_FILE}`);
