import { ConnectionOptions, Queue, Worker } from 'bullmq';
import { ApprovalResult, ApprovedCall, ApprovedCallDispatcher } from './approval-service';

/** The durable hand-over of approved calls from the deciding process to the one owning the tool. */
export const APPROVED_CALLS_QUEUE = 'approved-calls';
const JOB_NAME = 'ApprovedToolCall';

export interface ApprovedCallQueueOptions {
  connection: ConnectionOptions;
  /** Shared by every host of one deployment (not a per-service prefix). */
  prefix: string;
}

/**
 * A dispatcher that enqueues each approved call once: the job id is the approval id, so even a
 * repeated dispatch of one approval cannot run the tool twice.
 */
export function approvedCallQueue(o: ApprovedCallQueueOptions): { dispatch: ApprovedCallDispatcher; close(): Promise<void> } {
  const queue = new Queue<ApprovedCall>(APPROVED_CALLS_QUEUE, { connection: o.connection, prefix: o.prefix });
  return {
    dispatch: async (call) => {
      await queue.add(JOB_NAME, call, { jobId: call.approval_id, attempts: 1, removeOnComplete: 1000, removeOnFail: 5000 });
    },
    close: () => queue.close(),
  };
}

/**
 * Runs approved calls in the process that registered the tools' executors. One attempt per job: a
 * tool with side effects is never retried behind the approver's back; a failure is recorded on the
 * run (run_status failed) and in the failed-jobs set.
 */
export function approvedCallWorker(
  run: (call: ApprovedCall) => Promise<ApprovalResult>,
  o: ApprovedCallQueueOptions & { concurrency?: number },
): Worker<ApprovedCall> {
  return new Worker<ApprovedCall>(
    APPROVED_CALLS_QUEUE,
    async (job) => {
      const result = await run(job.data);
      if ('error' in result && result.error) throw new Error(result.error);
      return result;
    },
    { connection: o.connection, prefix: o.prefix, concurrency: o.concurrency ?? 4 },
  );
}
