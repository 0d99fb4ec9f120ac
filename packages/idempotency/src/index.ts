export { IDEMPOTENCY_KEY_TABLE_SQL, IDEMPOTENCY_KEY_RETENTION_MS } from './table.js';
export { runIdempotent, runIdempotentOutsideTransaction, pruneIdempotencyKeys } from './run-idempotent.js';
export { IDEMPOTENCY_METADATA, IDEMPOTENCY_KEY_PATTERN } from './caller-key.js';
export { idempotentWrites, type IdempotentWrite } from './idempotent-writes.js';
