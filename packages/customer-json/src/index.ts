export * from './customer-data.js';
export { auditChangesJson } from './audit-changes.js';
