export * from './types.ts';
export * from './queue.ts';
export * from './memory-store.ts';
export * from './indexeddb-store.ts';
// The disk store imports node:fs: import it from '@ops/client-core/files/disk-store' in Node only.
