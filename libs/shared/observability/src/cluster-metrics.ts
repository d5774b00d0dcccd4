import cluster from 'node:cluster';
import { AggregatorRegistry, Registry } from 'prom-client';

// Where several processes of one service share a port (HTTP_PROCESSES), a scrape reaches one of
// them at random, so /metrics must speak for all: the process asked relays to the supervising
// process, which gathers every process's registry through prom-client's cluster aggregation.
const ASK = 'platform:cluster-metrics?';
const ANSWER = 'platform:cluster-metrics';
const ANSWER_TIMEOUT_MS = 5000;

interface Ask {
  type: typeof ASK;
  id: number;
}

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

const isAsk = (m: unknown): m is Ask => (m as Ask | null)?.type === ASK;
const isAnswer = (m: unknown): m is Answer => (m as Answer | null)?.type === ANSWER;

/** In the supervising process: answers each process's request for the metrics of all of them. */
export function answerClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isAsk(message)) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text } satisfies Answer),
      (e: Error) => worker.send({ type: ANSWER, id: message.id, error: e.message } satisfies Answer),
    );
  });
}

let joined: Registry | undefined;
let nextId = 0;
const waiting = new Map<number, (answer: Answer) => void>();

/**
 * In one of several processes: offers `registry` to the supervisor's aggregation. Counters and
 * histograms are summed across processes; gauges of shared state declare `aggregator: 'max'`.
 */
export function joinClusterMetrics(registry: Registry): void {
  if (!cluster.isWorker) return;
  AggregatorRegistry.setRegistries([registry]);
  const listening = joined !== undefined;
  joined = registry;
  if (listening) return;
  // Constructing one installs prom-client's own listener that answers the supervisor's gathering.
  new AggregatorRegistry();
  process.on('message', (message: unknown) => {
    if (isAnswer(message)) waiting.get(message.id)?.(message);
  });
}

/** What /metrics answers: this process's registry, or every process's where it has joined a cluster. */
export function metricsText(registry: Registry): Promise<string> {
  if (!cluster.isWorker || joined !== registry || !process.send) return registry.metrics();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error(`the other processes' metrics did not arrive within ${ANSWER_TIMEOUT_MS} ms`));
    }, ANSWER_TIMEOUT_MS);
    waiting.set(id, (answer) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (answer.text !== undefined) resolve(answer.text);
      else reject(new Error(`gathering metrics failed: ${answer.error ?? 'no answer'}`));
    });
    process.send!({ type: ASK, id } satisfies Ask);
  });
}
