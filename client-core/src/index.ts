import { COLLECTIONS, commandsCollection } from '@ops/shared';
import type { RxCollection, RxStorage } from 'rxdb';
import { map } from 'rxjs';
import { Commands } from './commands.ts';
import { databaseName, type OpsDatabase, openDatabase } from './database.ts';
import { Replicator } from './replication.ts';
import { SyncStateStore } from './sync-state.ts';
import { type Credentials, Transport } from './transport.ts';

export { backoffDelay } from './backoff.ts';
export { AuthError, HttpError, OfflineError, ResetRequired } from './errors.ts';
export { SseParser } from './sse.ts';
export { toRxSchema, databaseName } from './database.ts';
export type { SyncState } from './sync-state.ts';
export type { Credentials } from './transport.ts';
export type { QueuedCommand } from './commands.ts';

export interface SignedIn {
  token: string;
  expires: number;
  user: { id: string; email: string | null; user_group_id: number; company_id: string };
}

export type SignInResult = ({ result: true } & SignedIn) | { result: false; two_factor?: 'EMAIL' | 'TOTP'; challenge?: string; message?: string };

/** `POST {baseUrl}/login.json` (CONTRACT 2). */
export async function signIn(baseUrl: string, email: string, password: string, fetchImpl: typeof fetch = fetch): Promise<SignInResult> {
  const res = await fetchImpl(`${baseUrl}/login.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return (await res.json()) as SignInResult;
}

/** `POST {baseUrl}/login/verify.json` with the two-factor code. */
export async function verifySignIn(baseUrl: string, challenge: string, code: string, fetchImpl: typeof fetch = fetch): Promise<SignInResult> {
  const res = await fetchImpl(`${baseUrl}/login/verify.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ challenge, code }) });
  return (await res.json()) as SignInResult;
}

export interface OpsClientOptions {
  /** e.g. `http://127.0.0.1:3000/api/v1` */
  baseUrl: string;
  credentials: Credentials;
  user: { id: string; company_id: string };
  /** `memory` (Node, tests, integrations), `dexie` (browser, Electron: IndexedDB), or any RxDB storage. */
  storage: 'memory' | 'dexie' | RxStorage<unknown, unknown>;
  fetch?: typeof fetch;
  /** Milliseconds before a failed pull or push is retried (default 5000). */
  retryTime?: number;
}

async function resolveStorage(storage: OpsClientOptions['storage']): Promise<RxStorage<unknown, unknown>> {
  if (storage === 'memory') return (await import('rxdb/plugins/storage-memory')).getRxStorageMemory() as RxStorage<unknown, unknown>;
  if (storage === 'dexie') return (await import('rxdb/plugins/storage-dexie')).getRxStorageDexie() as RxStorage<unknown, unknown>;
  return storage;
}

export interface OpsClient {
  db: OpsDatabase;
  collections: Record<string, RxCollection>;
  commands: Commands;
  syncState$: SyncStateStore['state$'];
  /** Saves a document of a client-writable collection locally; it syncs when online. */
  save(collection: string, doc: Record<string, unknown> & { id: string }): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  awaitInSync(): Promise<void>;
  resync(): void;
  destroy(): Promise<void>;
}

/**
 * The offline-first client: an RxDB database whose collections come from the
 * shared definitions, live replication with the server, server-decided
 * commands and an observable sync state. Works headless in Node.
 */
export async function createOpsClient(opts: OpsClientOptions): Promise<OpsClient> {
  const state = new SyncStateStore();
  const transport = new Transport(
    opts.baseUrl,
    opts.credentials,
    {
      onAnswer: () => state.patch({ online: true }),
      onOffline: (e) => state.patch({ online: false, lastError: e.message }),
      onSignInNeeded: () => state.patch({ needsSignIn: true }),
    },
    opts.fetch,
  );
  const db = await openDatabase(databaseName(opts.baseUrl, opts.user.id, opts.user.company_id), await resolveStorage(opts.storage));
  const collections = db.collections as Record<string, RxCollection>;
  const replicator = new Replicator(
    transport,
    COLLECTIONS.map((def) => ({ def, collection: collections[def.name] })),
    state,
    databaseName(opts.baseUrl, opts.user.id, opts.user.company_id),
    opts.retryTime ?? 5000,
  );
  const commands = new Commands(collections[commandsCollection.name], opts.user.id);
  const pendingSub = commands.pending$.pipe(map((p) => p.length)).subscribe((n) => state.patch({ pendingCommands: n }));
  let started = false;
  return {
    db,
    collections,
    commands,
    syncState$: state.state$,
    async save(collection, doc) {
      await collections[collection].upsert(doc);
      replicator.trackWrite(collection, doc.id);
    },
    async start() {
      if (started) return;
      started = true;
      await replicator.start();
    },
    async stop() {
      if (!started) return;
      started = false;
      await replicator.stop();
    },
    awaitInSync: () => replicator.awaitInSync(),
    resync: () => replicator.resync(),
    async destroy() {
      pendingSub.unsubscribe();
      if (started) await replicator.stop();
      await db.close();
    },
  };
}
