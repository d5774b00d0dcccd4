import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { DEFAULT_JOB_OPTIONS } from './job-options';
import { redisOptionsFromUrl } from './redis';

describe('BullMQ on the real Redis', () => {
  it('retries a failing job with the default options and then completes it', async () => {
    const connection = redisOptionsFromUrl(process.env.REDIS_URL!);
    const prefix = `t${randomBytes(4).toString('hex')}`;
    const queue = new Queue('test.retry', { connection, prefix, defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, backoff: { type: 'fixed', delay: 10 } } });
    const events = new QueueEvents('test.retry', { connection, prefix });
    let calls = 0;
    const worker = new Worker(
      'test.retry',
      async (job) => {
        calls++;
        if (job.attemptsMade < 1) throw new Error('transient');
        return { doubled: (job.data as { n: number }).n * 2 };
      },
      { connection, prefix },
    );
    try {
      await events.waitUntilReady();
      const job = await queue.add('double', { n: 21 });
      const result = await job.waitUntilFinished(events, 10000);
      expect(result).toEqual({ doubled: 42 });
      expect(calls).toBe(2);
    } finally {
      await worker.close();
      await events.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
