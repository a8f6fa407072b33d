/**
 * Steps of one collection's first sync, as `ops-sync:<collection>:<step>` marks in the
 * performance timeline (bench:device prints them per collection, docs/performance.md):
 * where the time between a collection's last stored page and its live replication goes.
 * One mark per collection and step, only on a first sync: nothing accumulates.
 */
export type FirstSyncStep = 'stored' | 'marked' | 'replicating' | 'pulled';

export function markFirstSync(collection: string, step: FirstSyncStep): void {
  globalThis.performance?.mark?.(`ops-sync:${collection}:${step}`);
}
