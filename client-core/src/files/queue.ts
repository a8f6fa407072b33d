import { uuidv7 } from '@ops/shared';
import { signErrors } from '@ops/shared/rules/uploads/upload-types';
import type { FileQueueStore, QueuedFile } from './types.ts';

export interface FileQueueOptions {
  store: FileQueueStore;
  /** API base, e.g. `https://ops.example/api/v1`. */
  baseUrl: string;
  /** Current bearer token (null when signed out: nothing is sent). */
  token: () => string | null;
  fetch?: typeof fetch;
  /** Attempts before a file that the server keeps refusing is marked failed. */
  maxAttempts?: number;
}

export interface EnqueueInput {
  filename: string;
  mime: string;
  bytes: Uint8Array;
  model: string;
  foreignKey: string;
  thumbnail?: string | null;
}

export type FileQueueListener = (files: QueuedFile[]) => void;

/** What one pass did with one file. */
export type ProcessOutcome = 'uploaded' | 'waiting' | 'offline' | 'failed';

/**
 * The offline file queue. `enqueue` stores the bytes locally first; `process`
 * uploads waiting files one by one (sign → PUT raw bytes without Authorization →
 * complete). A 404 at sign means the target record has not reached the server yet
 * (created offline, push pending): the file waits for the next pass. Network errors
 * leave it pending; an interrupted PUT simply restarts with a fresh sign. Completed
 * files leave the queue; the upload then appears on the record (sync or REST).
 */
export class FileQueue {
  private readonly listeners = new Set<FileQueueListener>();
  private running: Promise<Record<string, ProcessOutcome>> | null = null;
  private readonly fetch: typeof fetch;

  constructor(private readonly o: FileQueueOptions) {
    this.fetch = o.fetch ?? globalThis.fetch.bind(globalThis);
  }

  async enqueue(input: EnqueueInput): Promise<QueuedFile> {
    const errors = signErrors({
      filename: input.filename,
      mime: input.mime,
      size: input.bytes.byteLength,
      model: input.model,
      foreign_key: input.foreignKey,
    });
    if (Object.keys(errors).length)
      throw new Error(`Cannot queue ${input.filename}: ${Object.values(errors).join(', ')}`);
    const entry: QueuedFile = {
      id: uuidv7(),
      filename: input.filename,
      mime: input.mime,
      size: input.bytes.byteLength,
      model: input.model,
      foreignKey: input.foreignKey,
      state: 'pending',
      uploadId: null,
      created: Date.now(),
      attempts: 0,
      error: null,
      thumbnail: input.thumbnail ?? null,
    };
    // Bytes first: an entry never exists without its file.
    await this.o.store.saveBytes(entry.id, input.bytes);
    await this.o.store.save(entry);
    await this.emit();
    return entry;
  }

  list(): Promise<QueuedFile[]> {
    return this.o.store.list();
  }

  /** Files still to upload (the sync bar's count). */
  async pendingCount(): Promise<number> {
    return (await this.o.store.list()).filter((f) => f.state === 'pending' || f.state === 'uploading').length;
  }

  /** Files waiting for one record (thumbnails in the technical log before upload). */
  async filesFor(model: string, foreignKey: string): Promise<QueuedFile[]> {
    return (await this.o.store.list()).filter(
      (f) => f.model === model && f.foreignKey === foreignKey && f.state !== 'done',
    );
  }

  subscribe(fn: FileQueueListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private async emit() {
    if (this.listeners.size === 0) return;
    const files = await this.o.store.list();
    for (const fn of this.listeners) fn(files);
  }

  /** One pass over the queue; concurrent calls share the running pass. */
  process(): Promise<Record<string, ProcessOutcome>> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Drops a file from the queue (the user removed it before upload). */
  async discard(id: string): Promise<void> {
    await this.o.store.remove(id);
    await this.emit();
  }

  private async pass(): Promise<Record<string, ProcessOutcome>> {
    const out: Record<string, ProcessOutcome> = {};
    for (const f of await this.o.store.list()) {
      // `uploading` left by a crash or restart counts as pending: the PUT restarts.
      if (f.state !== 'pending' && f.state !== 'uploading') continue;
      const outcome = await this.uploadOne(f);
      out[f.id] = outcome;
      if (outcome === 'offline') break;
    }
    await this.emit();
    return out;
  }

  private async api(path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const token = this.o.token();
    const res = await this.fetch(`${this.o.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed };
  }

  private async uploadOne(f: QueuedFile): Promise<ProcessOutcome> {
    if (!this.o.token()) return 'offline';
    const bytes = await this.o.store.bytes(f.id);
    if (!bytes) {
      await this.o.store.remove(f.id);
      return 'failed';
    }
    const entry: QueuedFile = { ...f, state: 'uploading', attempts: f.attempts + 1 };
    await this.o.store.save(entry);
    try {
      const sign = await this.api('/uploads/sign.json', {
        filename: f.filename,
        mime: f.mime,
        size: f.size,
        model: f.model,
        foreign_key: f.foreignKey,
      });
      if (sign.status === 404) {
        // The record created offline is not on the server yet: wait for its push.
        await this.o.store.save({
          ...entry,
          state: 'pending',
          attempts: f.attempts,
          error: 'Waiting for the record to sync',
        });
        return 'waiting';
      }
      if (sign.status !== 200)
        return this.refuse(entry, String(sign.body.error ?? sign.body.message ?? `sign answered ${sign.status}`));
      const uploadId = String(sign.body.upload_id);
      const signed: QueuedFile = { ...entry, uploadId };
      await this.o.store.save(signed);
      const put = await this.fetch(String(sign.body.url), { method: 'PUT', body: bytes as unknown as ArrayBuffer });
      await put.arrayBuffer().catch(() => undefined);
      if (!put.ok) return this.retryLater(signed, `upload answered ${put.status}`);
      const complete = await this.api(`/uploads/complete/${uploadId}.json`);
      if (complete.status !== 200)
        return this.refuse(
          signed,
          String(complete.body.error ?? complete.body.message ?? `complete answered ${complete.status}`),
        );
      await this.o.store.remove(f.id);
      return 'uploaded';
    } catch (err) {
      // Network down or server unreachable: keep it for the next pass.
      await this.o.store.save({ ...entry, state: 'pending', error: (err as Error).message });
      return 'offline';
    }
  }

  private async retryLater(entry: QueuedFile, error: string): Promise<ProcessOutcome> {
    const failed = entry.attempts >= (this.o.maxAttempts ?? 5);
    await this.o.store.save({ ...entry, state: failed ? 'failed' : 'pending', error });
    return failed ? 'failed' : 'waiting';
  }

  /** The server refused the file itself (type, size): it will not succeed by retrying. */
  private async refuse(entry: QueuedFile, error: string): Promise<ProcessOutcome> {
    await this.o.store.save({ ...entry, state: 'failed', error });
    return 'failed';
  }
}
