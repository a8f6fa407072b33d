import { COLLECTIONS, deviceCollection } from '@ops/shared';
import type { RxStorage } from 'rxdb';
import { map, type Subscription } from 'rxjs';
import { Commands } from './commands.ts';
import { databaseName, type OpsCollections, type OpsDatabase, type OpsDoc, openDatabase } from './database.ts';
import { HttpError, OfflineError } from './errors.ts';
import { PendingWrites } from './pending-writes.ts';
import { Replicator, type ReplicatorOptions } from './replication.ts';
import { type SyncStateObservable, SyncStateStore } from './sync-state.ts';
import { CarriedMasters, upgradeLayout } from './upgrade.ts';
import { type Credentials, Transport } from './transport.ts';

export { backoffDelay } from './backoff.ts';
export { AuthError, HttpError, OfflineError, ResetRequired, type SyncProblemKind } from './errors.ts';
export { SseParser, type SseEvent } from './sse.ts';
export {
  databaseName,
  openDatabase,
  serverWins,
  toRxSchema,
  type OpsCollections,
  type OpsDatabase,
  type OpsDoc,
} from './database.ts';
export {
  Commands,
  type CommandArgs,
  type CommandName,
  type CommandResult,
  type DecidedCommand,
  type OpsCommands,
  type QueuedCommand,
} from './commands.ts';
export { PendingWrites } from './pending-writes.ts';
export { CarriedMasters, upgradeLayout } from './upgrade.ts';
export type { Checkpoint } from './replication.ts';
export type { CollectionProgress, SyncProblem, SyncState, SyncStateObservable } from './sync-state.ts';
export { FIRST_SYNC_ORDER } from './replication.ts';
export { Transport, type Credentials } from './transport.ts';

export interface SignedInUser {
  id: string;
  email: string | null;
  user_group_id: number;
  company_id: string;
}

export interface SignedIn {
  token: string;
  expires: number;
  user: SignedInUser;
}

export type SignInResult =
  | ({ result: true } & SignedIn)
  | { result: false; two_factor?: 'EMAIL' | 'TOTP'; challenge?: string; message?: string };

async function postPublic(url: string, body: unknown, fetchImpl: typeof fetch): Promise<SignInResult> {
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new OfflineError((err as Error).message);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OfflineError(`unexpected answer (HTTP ${res.status}): not the server`);
  }
  // Refusals (wrong password 401, throttled 429, validation 400) come as `{ result: false, message }`.
  if (typeof parsed === 'object' && parsed !== null && 'result' in parsed) return parsed as SignInResult;
  throw new HttpError(res.status, parsed);
}

/**
 * `POST {baseUrl}/login.json` with `{ email, password }`. Answers the session
 * (`{ result: true, token, expires, user }`), a two-factor challenge
 * (`{ result: false, two_factor, challenge }`: continue with `verifySignIn`) or
 * a refusal (`{ result: false, message }`). Throws `OfflineError` when the
 * server cannot be reached.
 */
export function signIn(
  baseUrl: string,
  email: string,
  password: string,
  fetchImpl: typeof fetch = (...a) => globalThis.fetch(...a),
): Promise<SignInResult> {
  return postPublic(`${baseUrl}/login.json`, { email, password }, fetchImpl);
}

/** `POST {baseUrl}/login/verify.json` with the two-factor challenge and code. */
export function verifySignIn(
  baseUrl: string,
  challenge: string,
  code: string,
  fetchImpl: typeof fetch = (...a) => globalThis.fetch(...a),
): Promise<SignInResult> {
  return postPublic(`${baseUrl}/login/verify.json`, { challenge, code }, fetchImpl);
}

export interface OpsClientOptions extends Omit<ReplicatorOptions, 'identifier' | 'userId'> {
  /** e.g. `http://127.0.0.1:3000/api/v1` */
  baseUrl: string;
  credentials: Credentials;
  /** The signed-in user (`signIn(...).user`): names the local database and owns queued commands. */
  user: { id: string; company_id: string };
  /** `memory` (Node, tests, integrations), `dexie` (browser, Electron: IndexedDB), or any RxDB storage. */
  storage: 'memory' | 'dexie' | RxStorage<unknown, unknown>;
  fetch?: typeof fetch;
  /** A request without an answer for this long counts as offline. Default 60000. */
  requestTimeoutMs?: number;
}

export interface OpsClient {
  db: OpsDatabase;
  /** One RxDB collection per shared definition (`COLLECTIONS` of @ops/shared), by name. */
  collections: OpsCollections;
  commands: Commands;
  syncState$: SyncStateObservable;
  /** Saves a document of a client-writable collection locally; it is pushed when online. */
  save(collection: string, doc: OpsDoc): Promise<void>;
  /** Installs a new token after the person signed in again: clears `needsSignIn`, replication resumes. */
  setToken(token: string): void;
  /** Starts replication (idempotent). Works offline: the client keeps trying. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves when every collection has pulled and pushed everything (waits while offline). */
  awaitInSync(): Promise<void>;
  /** Pulls every collection from its checkpoint now. */
  resync(): void;
  /**
   * Removes what aged out of the device's window (docs/sync.md, "Bounded
   * devices"; runs by itself after the first sync and once a day). `at`: the
   * moment to measure the windows from. Answers the documents removed per collection.
   */
  prune(at?: Date): Promise<Record<string, number>>;
  /** Stops and closes the local database; `removeData` also deletes it (signing out on a shared device). */
  destroy(options?: { removeData?: boolean }): Promise<void>;
}

const storages = new Map<'memory' | 'dexie', Promise<RxStorage<unknown, unknown>>>();

/**
 * The code of a built-in storage, loaded once. An app may call it early (while
 * the sign-in form shows) so the first sync does not wait for it.
 */
export function loadStorage(kind: 'memory' | 'dexie'): Promise<RxStorage<unknown, unknown>> {
  let loaded = storages.get(kind);
  if (!loaded) {
    loaded =
      kind === 'memory'
        ? import('rxdb/plugins/storage-memory').then((m) => m.getRxStorageMemory() as RxStorage<unknown, unknown>)
        : // A first sync's pages go in as inserts, without RxDB's read of each document first (first-load-storage.ts).
          Promise.all([import('rxdb/plugins/storage-dexie'), import('./first-load-storage.ts')]).then(([dexie, fast]) =>
            fast.firstLoadStorage(dexie.getRxStorageDexie() as RxStorage<unknown, unknown>),
          );
    storages.set(kind, loaded);
  }
  return loaded;
}

function resolveStorage(storage: OpsClientOptions['storage']): Promise<RxStorage<unknown, unknown>> {
  return typeof storage === 'string' ? loadStorage(storage) : Promise.resolve(storage);
}

/**
 * The offline-first client: an RxDB database whose collections come from the
 * shared definitions, live replication with the server over one stream,
 * server-decided commands and an observable sync state. Works headless in Node.
 */
export async function createOpsClient(opts: OpsClientOptions): Promise<OpsClient> {
  const state = new SyncStateStore();
  const transport = new Transport(
    opts.baseUrl,
    opts.credentials,
    {
      onAnswer: () => state.patch({ online: true }),
      // Failures are reported per collection and for the stream by the replicator (lastError).
      onOffline: () => state.patch({ online: false }),
      onSignInNeeded: () => state.patch({ needsSignIn: true }),
      onToken: () => state.patch({ needsSignIn: false }),
    },
    opts.fetch,
    opts.requestTimeoutMs,
  );
  const name = databaseName(opts.baseUrl, opts.user.id, opts.user.company_id);
  const db = await openDatabase(name, await resolveStorage(opts.storage));
  // A database of the old layout (one collection per record type): carry its unpushed writes and queued commands over.
  const carried = await CarriedMasters.load(db);
  await upgradeLayout(db, name, carried);
  const collections = db.collections;
  const defs = COLLECTIONS.map((def) => ({ def, collection: collections[def.name] }));

  const pending = new PendingWrites();
  for (const { def, collection } of defs) if (def.writableFields.length) pending.track(def.name, collection);
  const commands = new Commands(collections[deviceCollection.name], opts.user.id);
  const subs: Subscription[] = [
    pending.count$.subscribe((n) => state.patch({ pendingWrites: n })),
    commands.pending$.pipe(map((p) => p.length)).subscribe((n) => state.patch({ pendingCommands: n })),
  ];
  const replicator = new Replicator(transport, defs, state, pending, carried, {
    identifier: name,
    retryTime: opts.retryTime,
    pullBatchSize: opts.pullBatchSize,
    pushBatchSize: opts.pushBatchSize,
    streamSilenceMs: opts.streamSilenceMs,
    firstStreamSpreadMs: opts.firstStreamSpreadMs,
    bootstrap: opts.bootstrap,
    userId: opts.user.id,
    pruneEveryMs: opts.pruneEveryMs,
  });
  const writable = new Set(defs.filter((d) => d.def.writableFields.length).map((d) => d.def.name));

  return {
    db,
    collections,
    commands,
    syncState$: state.state$,
    async save(collection, doc) {
      if (!collections[collection]) throw new Error(`Unknown collection ${collection}`);
      if (!writable.has(collection))
        throw new Error(`${collection} is read-only on clients: change it through its REST endpoint or a command`);
      // A document from the first sync gets its assumed master state first (client-core/src/bootstrap.ts).
      await replicator.beforeLocalWrite(collection, [doc.id]);
      await collections[collection].upsert(doc);
      await pending.check(collection, [doc.id]);
    },
    setToken: (token) => transport.setToken(token),
    start: () => replicator.start(),
    stop: () => replicator.stop(),
    awaitInSync: () => replicator.awaitInSync(),
    resync: () => replicator.resync(),
    prune: (at) => replicator.prune(at),
    async destroy(options = {}) {
      await replicator.stop();
      for (const s of subs) s.unsubscribe();
      await pending.settled();
      pending.dispose();
      if (options.removeData) await db.remove();
      else await db.close();
      state.complete();
    },
  };
}
