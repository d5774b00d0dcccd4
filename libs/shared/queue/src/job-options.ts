import type { JobsOptions } from 'bullmq';

/** Three attempts with exponential backoff; finished jobs are trimmed so Redis does not grow without bound. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};
