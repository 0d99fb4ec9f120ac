export { fixedClock, offsetClock, systemClock, type Clock } from './clock.js';
export { PeriodicTasks, type PeriodicTask } from './periodic-tasks.js';
export {
  startService,
  type RunningService,
  type ServeOptions,
  type StartServiceOptions,
  type StopPhase,
} from './start-service.js';
