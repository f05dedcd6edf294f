export {
  type ArmDeadline,
  ISOLATION_LIMITS,
  WorkerIsolation,
  type WorkerIsolationOptions,
} from './worker-isolation';
