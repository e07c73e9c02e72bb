import { deliverEmailJob, emailDeadLetterJob, sweepEmailJob } from './deliver-email.job.js';
import type { JobDefinition } from './job.js';
import { pruneJob } from './prune.job.js';

/** Every job this worker runs. Adding a job: write its file, list it here. */
export const JOBS: JobDefinition[] = [pruneJob, deliverEmailJob, emailDeadLetterJob, sweepEmailJob];
