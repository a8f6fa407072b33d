/**
 * One signed-in login on this device: the client-core client (local database,
 * replication, commands) plus what the screens need on top of it:
 *
 * - which documents this device changed and the server has not acknowledged
 *   yet (the "pending" badges on items); client-core only counts them;
 * - commands that must wait for a document of this device to reach the server
 *   first (confirming a flight created offline: pushes of different
 *   collections are not ordered, and the server must know the flight before it
 *   decides the confirm).
 */
import {
  type CommandArgs,
  type CommandName,
  createOpsClient,
  databaseName,
  loadStorage,
  type OpsClient,
  type OpsDoc,
} from '@ops/client-core';
import {
  type AircraftReportDoc,
  type CommandDoc,
  DEVICE_TYPES,
  FLEET_TYPES,
  type FleetReportDoc,
  fromFleetReport,
  INBOX_TYPES,
  PEOPLE_TYPES,
  toFleetReport,
  uuidv7,
} from '@ops/shared';
import { BehaviorSubject, type Subscription } from 'rxjs';
import { markStartup } from './perf.ts';
import { type StoredSession, saveSession } from './session.ts';
import { appLocale } from './i18n.tsx';

/**
 * Where a record type lives: its area collection, the `type` selecting it, and
 * how a stored document reads and writes (the fleet keeps a report's own type
 * as `report_type`; screens and the shared rules use the REST shape).
 */
export interface RecordLocation {
  collection: string;
  type: string | null;
  read?: (doc: Record<string, unknown>) => Record<string, unknown>;
  write?: (doc: Record<string, unknown>) => Record<string, unknown>;
}

const RECORDS: Record<string, RecordLocation> = {
  aircraft: { collection: 'fleet', type: FLEET_TYPES.aircraft },
  aircraft_report: {
    collection: 'fleet',
    type: FLEET_TYPES.report,
    read: (d) => fromFleetReport(d as unknown as FleetReportDoc) as unknown as Record<string, unknown>,
    write: (d) => toFleetReport(d as unknown as AircraftReportDoc) as unknown as Record<string, unknown>,
  },
  maintenance_job: { collection: 'fleet', type: FLEET_TYPES.job },
  inventory_part: { collection: 'fleet', type: FLEET_TYPES.part },
  user: { collection: 'people', type: PEOPLE_TYPES.user },
  notification: { collection: 'inbox', type: INBOX_TYPES.notification },
  news: { collection: 'inbox', type: INBOX_TYPES.news },
  command: { collection: 'device', type: DEVICE_TYPES.command },
  outcome: { collection: 'device', type: DEVICE_TYPES.outcome },
};

/** A record type's location; any other name is a collection of its own (`flights`, `reference`). */
export const recordLocation = (name: string): RecordLocation => RECORDS[name] ?? { collection: name, type: null };

/** Record types the device writes (and badges while pending). */
const TRACKED = ['aircraft_report', 'flights', 'maintenance_job'] as const;
export type TrackedCollection = (typeof TRACKED)[number];

export interface DeferredCommand {
  id: string;
  name: CommandName;
  args: Record<string, unknown>;
  /** When the person acted (the command keeps this time when it is finally queued). */
  client_time: number;
  /** `collection:id` that must reach the server first. */
  after: string;
}

export const markKey = (collection: string, id: string) => `${collection}:${id}`;

/** The server's answer to a REST call that is not `{ result: true }`, in words. */
export class RestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

function readList<T>(key: string, check: (v: unknown) => v is T): T[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(v) ? v.filter(check) : [];
  } catch {
    return [];
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isDeferred = (v: unknown): v is DeferredCommand =>
  typeof v === 'object' &&
  v !== null &&
  isString((v as DeferredCommand).id) &&
  isString((v as DeferredCommand).name) &&
  isString((v as DeferredCommand).after);

/** Loads the code a session needs (the local database's storage) ahead of the sign-in. */
export function preloadWorkspace(): Promise<unknown> {
  return loadStorage('dexie');
}

export class Workspace {
  /** `collection:id` of documents saved here and not yet acknowledged by the server. */
  readonly marks$: BehaviorSubject<ReadonlySet<string>>;
  readonly deferred$: BehaviorSubject<readonly DeferredCommand[]>;
  /** Rejections the person dismissed (outcome and command ids), kept per login. */
  readonly dismissed$: BehaviorSubject<ReadonlySet<string>>;
  private readonly subs: Subscription[] = [];
  private readonly keys: { marks: string; deferred: string; dismissed: string; lastSync: string };
  private flushing = false;
  private readonly onOnline = () => this.client.resync();

  private constructor(
    readonly client: OpsClient,
    private session: StoredSession,
  ) {
    const db = databaseName(session.baseUrl, session.user.id, session.user.company_id);
    this.keys = {
      marks: `ops.marks.${db}`,
      deferred: `ops.deferred.${db}`,
      dismissed: `ops.dismissed.${db}`,
      lastSync: `ops.lastSync.${db}`,
    };
    this.marks$ = new BehaviorSubject<ReadonlySet<string>>(new Set(readList(this.keys.marks, isString)));
    this.deferred$ = new BehaviorSubject<readonly DeferredCommand[]>(readList(this.keys.deferred, isDeferred));
    this.dismissed$ = new BehaviorSubject<ReadonlySet<string>>(new Set(readList(this.keys.dismissed, isString)));
  }

  /** Opens (or creates) this login's local database and starts syncing; works without a network. */
  static async open(session: StoredSession): Promise<Workspace> {
    const client = await createOpsClient({
      baseUrl: session.baseUrl,
      // No refresh endpoint: a refused token asks the person to sign in again (local writes stay queued).
      credentials: { token: session.token, refresh: async () => null },
      user: session.user,
      storage: 'dexie',
      retryTime: 3000,
    });
    markStartup('database-open');
    const ws = new Workspace(client, session);
    ws.watch();
    const started = client.start();
    markStartup('sync-started');
    await started;
    return ws;
  }

  get user() {
    return this.session.user;
  }

  get baseUrl() {
    return this.session.baseUrl;
  }

  get token() {
    return this.session.token;
  }

  private watch(): void {
    for (const name of new Set(TRACKED.map((t) => recordLocation(t).collection))) {
      const collection = this.client.collections[name];
      if (!collection) continue;
      const kinds = TRACKED.filter((t) => recordLocation(t).collection === name);
      this.subs.push(
        collection.storageInstance.changeStream().subscribe((bulk) => {
          // A replication write (pulled server state, or a resolved conflict) means the server has spoken about the document.
          if (!bulk.context.startsWith('replication-')) return;
          this.unmark(bulk.events.flatMap((e) => kinds.map((k) => markKey(k, e.documentId))));
        }),
      );
    }
    let previous = this.client.syncState$.value.pendingWrites;
    this.subs.push(
      this.client.syncState$.subscribe((s) => {
        // Everything acknowledged: also clears marks whose server copy came back unchanged (no replication write).
        if (previous > 0 && s.pendingWrites === 0) this.unmark([...this.marks$.value]);
        previous = s.pendingWrites;
        if (s.lastSyncAt) localStorage.setItem(this.keys.lastSync, String(s.lastSyncAt));
      }),
      this.marks$.subscribe(() => void this.flush()),
    );
    window.addEventListener('online', this.onOnline);
  }

  private setMarks(next: ReadonlySet<string>): void {
    localStorage.setItem(this.keys.marks, JSON.stringify([...next]));
    this.marks$.next(next);
  }

  private unmark(keys: readonly string[]): void {
    const cur = this.marks$.value;
    if (!keys.some((k) => cur.has(k))) return;
    const next = new Set(cur);
    for (const k of keys) next.delete(k);
    this.setMarks(next);
  }

  private setDeferred(next: readonly DeferredCommand[]): void {
    localStorage.setItem(this.keys.deferred, JSON.stringify(next));
    this.deferred$.next(next);
  }

  /** The last time the server answered, kept across restarts (client-core's is per session), unix ms. */
  get lastSyncAt(): number | null {
    const v = Number(localStorage.getItem(this.keys.lastSync));
    return Number.isFinite(v) && v > 0 ? v : null;
  }

  isPending(collection: string, id: string): boolean {
    return this.marks$.value.has(markKey(collection, id));
  }

  /** Saves a document locally (pushed when the server can be reached) and marks it pending. */
  async save<D extends { id: string }>(collection: TrackedCollection, doc: D): Promise<void> {
    const next = new Set(this.marks$.value);
    next.add(markKey(collection, doc.id));
    this.setMarks(next);
    const where = recordLocation(collection);
    const stored = where.write
      ? where.write(doc as unknown as Record<string, unknown>)
      : where.type
        ? { ...doc, type: where.type }
        : doc;
    await this.client.save(where.collection, stored as unknown as OpsDoc);
  }

  /**
   * Queues a command. When `after` names a document of this device the server
   * has not acknowledged yet, the command waits for it (and counts as pending).
   * Answers the command id (its decision arrives in the `commands` collection).
   */
  async run<N extends CommandName>(
    name: N,
    args: CommandArgs<N>,
    after?: { collection: TrackedCollection; id: string },
  ): Promise<string> {
    const deferred: DeferredCommand = {
      id: uuidv7(),
      name,
      args: args as Record<string, unknown>,
      client_time: Date.now(),
      after: after ? markKey(after.collection, after.id) : '',
    };
    if (after && this.marks$.value.has(deferred.after)) {
      this.setDeferred([...this.deferred$.value, deferred]);
      return deferred.id;
    }
    await this.insertCommand(deferred);
    return deferred.id;
  }

  /** The same document `Commands.run` inserts, with the id and time of the person's action. */
  private async insertCommand(d: DeferredCommand): Promise<void> {
    const doc: CommandDoc & { type: string } = {
      type: DEVICE_TYPES.command,
      id: d.id,
      name: d.name,
      args: d.args,
      client_time: d.client_time,
      user_id: this.session.user.id,
      status: 'pending',
      reason: null,
      details: null,
      result: null,
      decided_at: null,
    };
    await this.client.collections.device.insert(doc as unknown as OpsDoc);
  }

  /** Queues the deferred commands whose document the server now knows, in the order they were given. */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      for (;;) {
        const marks = this.marks$.value;
        const ready = this.deferred$.value.find((d) => !marks.has(d.after));
        if (!ready) break;
        await this.insertCommand(ready);
        this.setDeferred(this.deferred$.value.filter((d) => d.id !== ready.id));
      }
    } catch {
      // The database closed (sign-out): the rest stays stored for the next session.
    } finally {
      this.flushing = false;
    }
  }

  dismiss(ids: readonly string[]): void {
    const next = new Set(this.dismissed$.value);
    for (const id of ids) next.add(id);
    localStorage.setItem(this.keys.dismissed, JSON.stringify([...next]));
    this.dismissed$.next(next);
  }

  /** Installs a fresh token after signing in again; replication resumes. */
  setToken(token: string, expires: number): void {
    this.session = { ...this.session, token, expires };
    saveSession(this.session);
    this.client.setToken(token);
  }

  /**
   * A REST call (actions that are not commands, e.g. cancelling a flight):
   * online only. Throws `RestError` with the server's message.
   */
  async rest<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.session.baseUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          'accept-language': appLocale(),
          authorization: `Bearer ${this.session.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new RestError('The server cannot be reached; try again when online', 0, null);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      throw new RestError(`Unexpected answer from the server (HTTP ${res.status})`, res.status, text);
    }
    const message =
      typeof parsed === 'object' && parsed !== null && typeof (parsed as { message?: unknown }).message === 'string'
        ? (parsed as { message: string }).message
        : null;
    if (!res.ok || (parsed as { result?: unknown } | null)?.result === false)
      throw new RestError(message ?? `HTTP ${res.status}`, res.status, parsed);
    return parsed as T;
  }

  /** Stops syncing and closes the local database (its data stays for the next sign-in of this person). */
  async close(): Promise<void> {
    window.removeEventListener('online', this.onOnline);
    for (const s of this.subs.splice(0)) s.unsubscribe();
    await this.client.destroy();
  }
}
