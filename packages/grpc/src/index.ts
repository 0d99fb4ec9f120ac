export { toServiceDefinition } from './definition.js';
export type { RequestOf, ResponseOf, RequestInitOf, ResponseInitOf } from './definition.js';
export {
  createClient,
  createClients,
  type ClientOf,
  type ClientsOf,
  type ServiceClient,
  type ClientOptions,
  type CallSettings,
} from './client.js';
export {
  startGrpcServer,
  registration,
  type ServiceImplementation,
  type ServiceRegistration,
  type CallContext,
  type RunningGrpcServer,
} from './server.js';
export * from './errors.js';
export { errorChain, failureKind, type ErrorFields, type FailureKind } from './failure.js';
export { callerMetadata, readCaller, type CallerContext } from './metadata.js';
export {
  createHealthService,
  LIVENESS,
  ServingStatus,
  type HealthOptions,
  type HealthService,
  type ReadinessCheck,
  withTimeout,
} from './health.js';
export { protoVocabulary, type ProtoVocabulary, type Spelling } from './proto-vocabulary.js';
export { enumWords, NULL_FIELDS, type InputWords } from './input-words.js';
export {
  createPlatformClients,
  PAYMENTS_SERVICES,
  type PaymentsClients,
  type PlatformAddresses,
  type PlatformClients,
  type PlatformTargets,
} from './platform-clients.js';
