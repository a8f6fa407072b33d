import { type CommandDoc, uuidv7 } from '@ops/shared';
import type { RxCollection } from 'rxdb';
import { filter, firstValueFrom, map, type Observable } from 'rxjs';

export interface QueuedCommand {
  id: string;
  /** Resolves when the server has decided (accepted or rejected); pending offline until then. */
  done: Promise<CommandDoc>;
}

/**
 * Server-decided commands. `run` queues the command in the replicated `commands`
 * collection (works offline); the push delivers it, the server decides once, and
 * the decided document comes back into the same collection.
 */
export class Commands {
  constructor(
    private readonly collection: RxCollection,
    private readonly userId: string,
  ) {}

  async run(name: string, args: Record<string, unknown>): Promise<QueuedCommand> {
    const doc: CommandDoc = {
      id: uuidv7(),
      name,
      args,
      client_time: Date.now(),
      user_id: this.userId,
      status: 'pending',
      reason: null,
      details: null,
      result: null,
      decided_at: null,
    };
    await this.collection.insert(doc);
    return { id: doc.id, done: this.decided(doc.id) };
  }

  decided(id: string): Promise<CommandDoc> {
    return firstValueFrom(
      this.collection.findOne(id).$.pipe(
        map((d) => (d ? (d.toJSON() as unknown as CommandDoc) : null)),
        filter((d): d is CommandDoc => !!d && d.status !== 'pending'),
      ),
    );
  }

  /** Commands waiting for the server, oldest first. */
  get pending$(): Observable<CommandDoc[]> {
    return this.collection
      .find({ selector: { status: 'pending' }, sort: [{ id: 'asc' }] })
      .$.pipe(map((docs) => docs.map((d) => d.toJSON() as unknown as CommandDoc)));
  }

  /** Every command of this login, newest first (for a history of decisions). */
  get all$(): Observable<CommandDoc[]> {
    return this.collection.find({ sort: [{ id: 'desc' }] }).$.pipe(map((docs) => docs.map((d) => d.toJSON() as unknown as CommandDoc)));
  }
}
