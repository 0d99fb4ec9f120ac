export * from './postgres.js';
export * from './kafka.js';
export * from './processes.js';
export * from './otlp.js';
export * from './s3.js';
export * from './certificates.js';
export * from './webhook-receiver.js';
export * from './query-plan.js';
