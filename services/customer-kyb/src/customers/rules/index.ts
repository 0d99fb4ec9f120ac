// The customer-kyb domain rules: pure functions of a request body and an injected "today".
export * from './calendar.js';
export * from './countries.js';
export * from './customer-create.js';
export * from './customer-fields.js';
export * from './customer-update.js';
export * from './field-formats.js';
export * from './kyb-documents.js';
export * from './kyb-scope.js';
export * from './owner-changes.js';
export * from './owner-fields.js';
export * from './owners.js';
export * from './patch.js';
export { NOT_RECOGNISED } from './records.js';
export * from './readiness.js';
export * from './upgrade-request.js';
export * from './validation.js';
export * from './individual-readiness.js';
export * from './typed-body.js';
