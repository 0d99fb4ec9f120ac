export {
  BusinessClock,
  MAX_ADVANCE_SECONDS,
  sandboxClockSchemaDownSql,
  sandboxClockSchemaSql,
  type Environment,
} from './business-clock.js';
export { sandboxClockCopyRegistration, sandboxClockRegistration, type SandboxClockEdge } from './service.js';
