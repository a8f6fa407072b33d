import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ChangeEvent } from '../db/unit-of-work.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';

const CHANNEL = 'ops_changes';

/**
 * Tells live sync streams that a company's data changed. In process through an
 * EventEmitter; across server processes on PostgreSQL through LISTEN/NOTIFY.
 * Events carry only the company, change number and tables: streams re-read
 * through the normal pull path, so visibility rules apply once.
 */
export class ChangeBus {
  private readonly emitter = new EventEmitter();
  private readonly origin = randomUUID();
  private listener: pg.Client | null = null;

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
  ) {
    this.emitter.setMaxListeners(0);
  }

  async start(): Promise<void> {
    const conn = this.database.pgConnection;
    if (!conn) return;
    const client = new pg.Client({ connectionString: conn.connectionString });
    client.on('error', (err) => this.log.warn({ err }, 'change listener connection error'));
    await client.connect();
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const { origin, schema, events } = JSON.parse(msg.payload) as { origin: string; schema: string | null; events: ChangeEvent[] };
        if (origin === this.origin || schema !== conn.schema) return;
        this.emitter.emit('changes', events);
      } catch (err) {
        this.log.warn({ err }, 'bad change notification');
      }
    });
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  publish(events: ChangeEvent[]): void {
    this.emitter.emit('changes', events);
    const pool = this.database.pool;
    if (pool) {
      const payload = JSON.stringify({ origin: this.origin, schema: this.database.pgConnection?.schema ?? null, events });
      pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]).catch((err) => this.log.warn({ err }, 'notify failed'));
    }
  }

  subscribe(fn: (events: ChangeEvent[]) => void): () => void {
    this.emitter.on('changes', fn);
    return () => this.emitter.off('changes', fn);
  }

  async stop(): Promise<void> {
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }
}
