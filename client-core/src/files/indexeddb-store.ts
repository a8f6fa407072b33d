import type { FileQueueStore, QueuedFile } from './types.ts';

/*
 * The few IndexedDB shapes used here, declared locally: the shared TypeScript
 * configuration has no DOM library (server and clients compile together).
 */
interface IDBRequest<T> {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface IDBOpenRequest extends IDBRequest<IDBDatabase> {
  onupgradeneeded: (() => void) | null;
}
interface IDBObjectStore {
  getAll(): IDBRequest<unknown[]>;
  get(key: string): IDBRequest<unknown>;
  put(value: unknown, key?: string): IDBRequest<unknown>;
  delete(key: string): IDBRequest<unknown>;
}
interface IDBTransaction {
  objectStore(name: string): IDBObjectStore;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  error: unknown;
}
type IDBTransactionMode = 'readonly' | 'readwrite';
interface IDBDatabase {
  createObjectStore(name: string, opts?: { keyPath: string }): IDBObjectStore;
  transaction(names: string | string[], mode: IDBTransactionMode): IDBTransaction;
  close(): void;
}
export interface IDBFactory {
  open(name: string, version: number): IDBOpenRequest;
}

const req = <T>(r: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });

/**
 * Browser and Electron queue store: one IndexedDB database with an `entries` store
 * and a `bytes` store (the bytes are kept apart so listing never loads them).
 */
export class IndexedDbFileQueueStore implements FileQueueStore {
  private db: Promise<IDBDatabase> | null = null;

  constructor(
    private readonly name = 'ops-file-queue',
    private readonly idb: IDBFactory = (globalThis as unknown as { indexedDB: IDBFactory }).indexedDB,
  ) {}

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise((resolve, reject) => {
      const r = this.idb.open(this.name, 1);
      r.onupgradeneeded = () => {
        r.result.createObjectStore('entries', { keyPath: 'id' });
        r.result.createObjectStore('bytes');
      };
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    return this.db;
  }

  private async store(name: 'entries' | 'bytes', mode: IDBTransactionMode) {
    return (await this.open()).transaction(name, mode).objectStore(name);
  }

  async list(): Promise<QueuedFile[]> {
    const all = (await req((await this.store('entries', 'readonly')).getAll())) as QueuedFile[];
    return all.sort((a, b) => a.created - b.created);
  }
  async save(entry: QueuedFile) {
    await req((await this.store('entries', 'readwrite')).put(entry));
  }
  async saveBytes(id: string, bytes: Uint8Array) {
    await req((await this.store('bytes', 'readwrite')).put(bytes, id));
  }
  async bytes(id: string) {
    const v = (await req((await this.store('bytes', 'readonly')).get(id))) as Uint8Array | undefined;
    return v ?? null;
  }
  async remove(id: string) {
    const db = await this.open();
    const tx = db.transaction(['entries', 'bytes'], 'readwrite');
    tx.objectStore('entries').delete(id);
    tx.objectStore('bytes').delete(id);
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  }

  close() {
    void this.db?.then((d) => d.close());
    this.db = null;
  }
}
