import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ChangeEvent } from '../db/unit-of-work.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { readinessOf } from '../ops/health.ts';

const CHANNEL = 'ops_changes';
/** Reconnect delays: 100 ms doubling up to 1 s (a restarted PostgreSQL is usually back within a second or two). */
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 1000;
/** A LISTEN connection that silently died (network cut, no RST) is found by this heartbeat. */
const HEARTBEAT_MS = 5000;
const HEARTBEAT_TIMEOUT_MS = 3000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Backoff with ±20 % jitter, so several processes do not reconnect in lockstep. */
export const backoffMs = (attempt: number) =>
  Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempt) * (0.8 + Math.random() * 0.4);

/**
 * Tells live sync streams that a company's data changed. In process through an
 * EventEmitter; across server processes on PostgreSQL through LISTEN/NOTIFY.
 * Events carry only the company, change number and tables: streams re-read
 * through the normal pull path, so visibility rules apply once.
 *
 * The LISTEN connection is kept alive: when it breaks (database restart,
 * network cut) it reconnects with backoff and LISTENs again, and then tells
 * subscribers of `onResume` to re-read from their checkpoints, because
 * notifications sent while it was down are lost. While it is down the
 * readiness probe answers 503 (a process that cannot hear other processes'
 * changes should not take new streams).
 */
export class ChangeBus {
  private readonly emitter = new EventEmitter();
  private readonly origin = randomUUID();
  private listener: pg.Client | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private reconnecting: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** False while the PostgreSQL LISTEN connection is down; always true on SQLite. */
  get listening(): boolean {
    return !this.database.pgConnection || this.listener !== null;
  }

  async start(): Promise<void> {
    if (!this.database.pgConnection) return;
    this.stopped = false;
    await this.connect();
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private setListening(client: pg.Client | null): void {
    this.listener = client;
    readinessOf(this.database).listening = client !== null;
  }

  /** One LISTEN connection; throws when it cannot be made (the caller retries). */
  private async connect(): Promise<void> {
    const conn = this.database.pgConnection;
    if (!conn) return;
    const client = new pg.Client({
      connectionString: conn.connectionString,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    client.on('error', (err) => {
      this.log.warn({ err: err.message }, 'change listener connection error');
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const { origin, schema, events } = JSON.parse(msg.payload) as {
          origin: string;
          schema: string | null;
          events: ChangeEvent[];
        };
        if (origin === this.origin || schema !== conn.schema) return;
        this.emitter.emit('changes', events);
      } catch (err) {
        this.log.warn({ err }, 'bad change notification');
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      client.end().catch(() => {});
      throw err;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.setListening(client);
  }

  /** The current listener broke: drop it and reconnect in the background. */
  private lost(client: pg.Client): void {
    if (this.listener !== client) return;
    this.setListening(null);
    client.end().catch(() => {});
    if (this.stopped) return;
    this.log.warn('change listener lost; reconnecting');
    this.reconnecting ??= this.reconnect().finally(() => {
      this.reconnecting = null;
    });
  }

  private async reconnect(): Promise<void> {
    const started = performance.now();
    for (let attempt = 0; !this.stopped; attempt++) {
      await sleep(backoffMs(attempt));
      if (this.stopped) return;
      try {
        await this.connect();
        if (this.stopped) return;
        readinessOf(this.database).listenerReconnects++;
        this.log.warn(
          { ms: Math.round(performance.now() - started), attempts: attempt + 1 },
          'change listener back; streams re-read from their checkpoints',
        );
        // Whatever other processes committed meanwhile was announced to nobody: everyone re-reads.
        this.emitter.emit('resume');
        return;
      } catch (err) {
        if (attempt % 10 === 0)
          this.log.warn({ err: (err as Error).message, attempt }, 'change listener reconnect failed');
      }
    }
  }

  /** A query on the LISTEN connection; a silent death (no error event) is noticed here. */
  private async beat(): Promise<void> {
    const client = this.listener;
    if (!client || this.stopped) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), HEARTBEAT_TIMEOUT_MS);
    });
    const ok = await Promise.race([
      client.query('SELECT 1').then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
    clearTimeout(timer);
    if (!ok) this.lost(client);
  }

  publish(events: ChangeEvent[]): void {
    this.emitter.emit('changes', events);
    const pool = this.database.pool;
    if (pool) {
      const payload = JSON.stringify({
        origin: this.origin,
        schema: this.database.pgConnection?.schema ?? null,
        events,
      });
      void this.notify(pool, payload);
    }
  }

  /**
   * The commit is done; the NOTIFY goes on a pooled connection that may just have broken. Retried a few
   * times (a duplicate wake-up costs one empty re-read; a lost one leaves other processes' streams behind).
   */
  private async notify(pool: pg.Pool, payload: string): Promise<void> {
    for (let attempt = 0; attempt < 4 && !this.stopped; attempt++) {
      try {
        await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
        return;
      } catch (err) {
        if (attempt === 3) this.log.warn({ err: (err as Error).message }, 'notify failed');
        else await sleep(backoffMs(attempt + 2));
      }
    }
  }

  subscribe(fn: (events: ChangeEvent[]) => void): () => void {
    this.emitter.on('changes', fn);
    return () => this.emitter.off('changes', fn);
  }

  /** Called when the listener is back after a loss: notifications may have been missed, re-read everything. */
  onResume(fn: () => void): () => void {
    this.emitter.on('resume', fn);
    return () => this.emitter.off('resume', fn);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const client = this.listener;
    this.listener = null;
    await client?.end().catch(() => {});
    await this.reconnecting?.catch(() => {});
  }
}
