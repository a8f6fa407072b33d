/**
 * Batches work that arrives while earlier batches run. `add` queues an item;
 * a batch starts on the next microtask if fewer than `concurrency` are in
 * flight, else as soon as one finishes, with everything queued meanwhile
 * (up to `maxBatch`). An item never joins a batch that has already started,
 * so what a batch reads is at least as new as the request that queued it.
 *
 * Why: a herd of devices reconnecting at once asked the database once per
 * request (credential lookups, last-seen touches) and held every pooled
 * connection; batched, a thousand requests cost a handful of queries.
 */
export class Coalescer<K, V> {
  private queued = new Map<K, Array<(v: V | Error) => void>>();
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly run: (keys: K[]) => Promise<Map<K, V>>,
    private readonly fallback: V,
    private readonly concurrency = 2,
    private readonly maxBatch = 500,
  ) {}

  /** The value for `key` from the next batch (or `fallback` when the batch did not answer it). */
  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const settle = (v: V | Error) => (v instanceof Error ? reject(v) : resolve(v));
      const waiting = this.queued.get(key);
      if (waiting) waiting.push(settle);
      else this.queued.set(key, [settle]);
      this.kick();
    });
  }

  private kick(): void {
    if (this.scheduled || this.running >= this.concurrency || !this.queued.size) return;
    this.scheduled = true;
    // Requests of the same tick go together.
    queueMicrotask(() => {
      this.scheduled = false;
      this.start();
    });
  }

  private start(): void {
    if (this.running >= this.concurrency || !this.queued.size) return;
    const batch = new Map<K, Array<(v: V | Error) => void>>();
    for (const [k, w] of this.queued) {
      if (batch.size >= this.maxBatch) break;
      batch.set(k, w);
    }
    for (const k of batch.keys()) this.queued.delete(k);
    this.running++;
    this.run([...batch.keys()])
      .then(
        (found) => {
          for (const [k, waiters] of batch) {
            const v = found.has(k) ? (found.get(k) as V) : this.fallback;
            for (const w of waiters) w(v);
          }
        },
        (err: unknown) => {
          const e = err instanceof Error ? err : new Error(String(err));
          for (const waiters of batch.values()) for (const w of waiters) w(e);
        },
      )
      .finally(() => {
        this.running--;
        this.kick();
      });
    // More than one batch's worth queued: start another while under the limit.
    if (this.queued.size) this.kick();
  }
}
