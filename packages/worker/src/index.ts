export { startWorker, type WorkerHandle } from './worker.js';
export { JOBS, jobTable } from './jobs/index.js';
export { bindJob, type JobDefinition, type JobHandler, type RunnableQueue } from './jobs/job.js';
