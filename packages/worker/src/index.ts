export { startWorker, type WorkerHandle } from './worker.js';
export { JOBS } from './jobs/index.js';
export type { JobDefinition } from './jobs/job.js';
