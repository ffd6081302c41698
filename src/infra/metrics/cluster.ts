import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * WORKERS=N: a scrape reaches one worker (the port is shared), but must answer the sum of all. The worker
 * asks the primary, which gathers every worker's registry through prom-client's own cluster messages
 * (AggregatorRegistry: counters, histograms and most gauges summed) and sends the text back.
 */
const REQUEST = 'redirectory:metrics-request';
const REPLY = 'redirectory:metrics-reply';
const TIMEOUT_MS = 10_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}
interface MetricsReply {
  type: typeof REPLY;
  id: number;
  text?: string;
  error?: string;
}

const isRequest = (m: unknown): m is MetricsRequest => (m as MetricsRequest | null)?.type === REQUEST;
const isReply = (m: unknown): m is MetricsReply => (m as MetricsReply | null)?.type === REPLY;

/** The primary's side: one aggregator, answering its workers' requests. */
export class ClusterMetrics {
  private readonly aggregator = new AggregatorRegistry();

  get contentType(): string {
    return this.aggregator.contentType;
  }

  /** The sum over every worker. */
  text(): Promise<string> {
    return this.aggregator.clusterMetrics();
  }

  /** Answers `worker`'s requests for the sum (a scrape it received on the main port). */
  serve(worker: Worker): void {
    worker.on('message', (message: unknown) => {
      if (!isRequest(message)) return;
      this.text().then(
        (text) => worker.isConnected() && worker.send({ type: REPLY, id: message.id, text } satisfies MetricsReply),
        (err: unknown) => worker.isConnected() && worker.send({ type: REPLY, id: message.id, error: String(err) } satisfies MetricsReply),
      );
    });
  }
}

/**
 * A worker's side: its registry is the one prom-client hands the primary, and `text()` asks the primary for
 * the sum. Outside a cluster it answers the registry itself.
 */
export class WorkerMetrics {
  private next = 0;
  private readonly waiting = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
  private readonly listener = (message: unknown) => {
    if (!isReply(message)) return;
    const entry = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    if (message.error !== undefined) entry?.reject(new Error(message.error));
    else entry?.resolve(message.text ?? '');
  };

  constructor(private readonly registry: Registry) {
    if (!cluster.isWorker) return;
    AggregatorRegistry.setRegistries([registry]);
    // Made for its side effect: in a worker, prom-client's answer to the primary's requests is installed by the constructor.
    new AggregatorRegistry();
    process.on('message', this.listener);
  }

  text(): Promise<string> {
    if (!cluster.isWorker || !process.send) return this.registry.metrics();
    const id = ++this.next;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error('the primary did not answer the metrics request'));
      }, TIMEOUT_MS);
      this.waiting.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      process.send!({ type: REQUEST, id } satisfies MetricsRequest);
    });
  }

  close(): void {
    process.off('message', this.listener);
    for (const entry of this.waiting.values()) entry.reject(new Error('closing'));
    this.waiting.clear();
  }
}
