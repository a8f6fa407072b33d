import type { FileQueueStore, QueuedFile } from './types.ts';

/** In-memory queue store (tests, short-lived Node clients). */
export class MemoryFileQueueStore implements FileQueueStore {
  private readonly entries = new Map<string, QueuedFile>();
  private readonly data = new Map<string, Uint8Array>();
  async list() {
    return [...this.entries.values()].map((e) => ({ ...e }));
  }
  async save(entry: QueuedFile) {
    this.entries.set(entry.id, { ...entry });
  }
  async saveBytes(id: string, bytes: Uint8Array) {
    this.data.set(id, bytes);
  }
  async bytes(id: string) {
    return this.data.get(id) ?? null;
  }
  async remove(id: string) {
    this.entries.delete(id);
    this.data.delete(id);
  }
}
