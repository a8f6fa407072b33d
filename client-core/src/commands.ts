import { type CommandDoc, DEVICE_TYPES, uuidv7 } from '@ops/shared';
import type { RxCollection } from 'rxdb';
import { filter, firstValueFrom, map, type Observable } from 'rxjs';
import type { OpsDoc } from './database.ts';

/**
 * The commands the server registers (`registerCommand` in
 * server/src/areas/{area}/{area}.commands.ts), with their arguments and the
 * `result` of an accepted decision. Areas that add a command extend this map
 * by declaration merging:
 *
 *     declare module '@ops/client-core' {
 *       interface OpsCommands { 'area.verb': { args: { id: string }; result: { id: string } } }
 *     }
 */
export interface OpsCommands {
  'base.set_default': { args: { base_id: string }; result: { base_id: string; previous: string | null } };
  'mel.raise': {
    args: {
      AircraftReport: Record<string, unknown>;
      MelItem?: Record<string, unknown>;
      MelItemLimitation?: unknown[];
      /** The device's id for the new report, so its local document and the server's are one. */
      id?: string;
    };
    result: { report_id: string; mel_item_id: string | null; starts: number | null; expires: number | null };
  };
  'mel.extend': {
    args: { report_id: string; extended_until?: number | null; reason?: string | null };
    result: { report_id: string; extended_until: number };
  };
  'mel.close': {
    args: { report_id: string; rectification?: string | null };
    result: { report_id: string; closed: number | null };
  };
  'flight.confirm': { args: { flight_id: string }; result: { flight_id: string; status: string } };
  'flight.dispatch': { args: { flight_id: string }; result: { flight_id: string; status: string } };
}

export type CommandName = keyof OpsCommands & string;
export type CommandArgs<N extends CommandName> = OpsCommands[N]['args'];
export type CommandResult<N extends CommandName> = OpsCommands[N]['result'];

/** A command the server decided: `accepted` with its `result`, or `rejected` with a `reason` in words. */
export type DecidedCommand<N extends CommandName = CommandName> = Omit<
  CommandDoc,
  'name' | 'status' | 'result' | 'args'
> & { name: N; args: CommandArgs<N> } & (
    | { status: 'accepted'; result: CommandResult<N> | null }
    | { status: 'rejected'; reason: string | null; result: null }
  );

export interface QueuedCommand<N extends CommandName = CommandName> {
  id: string;
  /**
   * Resolves when the server has decided (accepted or rejected): at once when
   * online, after reconnecting when the command was queued offline (even days
   * later). Never rejects; if the client is destroyed first it stays pending, and
   * `commands.decided(id)` finds the decision in a later session.
   */
  done: Promise<DecidedCommand<N>>;
}

const plain = (d: { toJSON(): unknown }) => d.toJSON() as unknown as CommandDoc;

/**
 * Server-decided commands (docs/sync.md, "Commands"). `run` inserts a pending
 * `CommandDoc` (`type: 'command'`) into the replicated `device` collection, which works offline;
 * the push delivers it, the server decides once (idempotent by id) and answers
 * the decided document, which replaces the pending one locally.
 */
export class Commands {
  constructor(
    private readonly collection: RxCollection<OpsDoc>,
    private readonly userId: string,
  ) {}

  async run<N extends CommandName>(name: N, args: CommandArgs<N>): Promise<QueuedCommand<N>> {
    const doc: CommandDoc & { type: string } = {
      id: uuidv7(),
      type: DEVICE_TYPES.command,
      name,
      args: args as Record<string, unknown>,
      client_time: Date.now(),
      user_id: this.userId,
      status: 'pending',
      reason: null,
      details: null,
      result: null,
      decided_at: null,
    };
    await this.collection.insert(doc as unknown as OpsDoc);
    return { id: doc.id, done: this.decided(doc.id) as Promise<DecidedCommand<N>> };
  }

  /** The decision of a command (queued now or in an earlier session). */
  decided(id: string): Promise<DecidedCommand> {
    const done = firstValueFrom(
      this.collection.findOne(id).$.pipe(
        map((d) => (d ? plain(d) : null)),
        filter((d): d is CommandDoc => !!d && d.status !== 'pending'),
      ),
    ) as Promise<DecidedCommand>;
    // Callers that never await `done` must not see an unhandled rejection when the client is destroyed.
    done.catch(() => {});
    return done;
  }

  /** Commands waiting for the server, oldest first. */
  get pending$(): Observable<CommandDoc[]> {
    return this.collection
      .find({ selector: { type: DEVICE_TYPES.command, status: 'pending' }, sort: [{ id: 'asc' }] })
      .$.pipe(map((docs) => docs.map(plain)));
  }

  /** Every command of this login, newest first (a history of decisions). */
  get all$(): Observable<CommandDoc[]> {
    return this.collection
      .find({ selector: { type: DEVICE_TYPES.command }, sort: [{ id: 'desc' }] })
      .$.pipe(map((docs) => docs.map(plain)));
  }
}
