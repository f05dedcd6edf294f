export { type ArmDeadline, WorkerIsolation } from './worker-isolation';
