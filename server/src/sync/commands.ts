import type { CommandDoc } from '@ops/shared';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { Actor } from '../http/actor.ts';
import { HttpError, zodFieldErrors } from '../http/errors.ts';
import { inLanguage } from '../http/messages.ts';
import { nowSeconds } from '../lib/tokens.ts';

/** A server-decided refusal: the reason in words, and details the client can show. */
export class CommandRejected extends Error {
  constructor(
    readonly reason: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(reason);
  }
}

export interface CommandHandler<S extends z.ZodType = z.ZodType> {
  name: string;
  args: S;
  /**
   * Decides and applies the command inside `uow`'s transaction, with the
   * caller's rights at the time it runs. Throw CommandRejected (or an
   * HttpError) to refuse: every write of the transaction is then rolled back.
   */
  run(
    ctx: AppContext,
    uow: UnitOfWork,
    actor: Actor,
    args: z.output<S>,
    meta: { commandId: string; clientTime: number },
  ): Promise<Record<string, unknown> | undefined>;
}

const handlers = new Map<string, CommandHandler>();

/** A command as an area's manifest lists it (its argument schema erased). */
export const defineCommand = <S extends z.ZodType>(handler: CommandHandler<S>): CommandHandler =>
  handler as unknown as CommandHandler;

export function registerCommand<S extends z.ZodType>(handler: CommandHandler<S>): void {
  handlers.set(handler.name, defineCommand(handler));
}

export const commandNames = () => [...handlers.keys()];

type Decided = Pick<CommandDoc, 'status' | 'reason' | 'details' | 'result'>;

async function insertCommand(uow: UnitOfWork, actor: Actor, doc: CommandDoc, decided: Decided) {
  const now = nowSeconds();
  await uow.trx
    .insertInto('commands')
    .values({
      id: doc.id,
      company_id: actor.companyId,
      change_no: await uow.changeNo(actor.companyId, 'commands'),
      deleted: 0,
      created: now,
      modified: now,
      user_id: actor.userId,
      name: String(doc.name),
      args: JSON.stringify(doc.args ?? {}),
      client_time: Math.trunc(Number(doc.client_time) || 0),
      status: decided.status,
      reason: decided.reason,
      details: decided.details ? JSON.stringify(decided.details) : null,
      result: decided.result ? JSON.stringify(decided.result) : null,
      decided_at: now,
    })
    .execute();
}

/**
 * Runs a command once. The command row is inserted first in the same
 * transaction as the handler's writes: a concurrent replay of the same id
 * blocks on the primary key and then fails, and a crash before commit leaves
 * nothing, so the client's retry runs it exactly once. A refusal is stored in
 * a transaction of its own after the handler's writes were rolled back.
 */
export function executeCommand(ctx: AppContext, actor: Actor, doc: CommandDoc): Promise<void> {
  // A refusal is stored and read later by devices in any language: zod words its issues in English here.
  return inLanguage('en', () => decideCommand(ctx, actor, doc));
}

async function decideCommand(ctx: AppContext, actor: Actor, doc: CommandDoc): Promise<void> {
  const handler = handlers.get(doc.name);
  const reject = async (reason: string, details: Record<string, unknown> | null = null) => {
    try {
      await ctx.tx((uow) => insertCommand(uow, actor, doc, { status: 'rejected', reason, details, result: null }));
    } catch (err) {
      // A concurrent replay of the same id (a device retrying a push still in flight) stored its decision between
      // our rollback and this insert: decided once, by it (was a duplicate-key 500 in sim:convergence --cluster).
      if (await exists(ctx, doc.id)) return;
      throw err;
    }
  };
  if (!handler) return reject(`Unknown command ${doc.name}`);
  const parsed = handler.args.safeParse(doc.args ?? {});
  if (!parsed.success) return reject('Invalid command arguments', { errors: zodFieldErrors(parsed.error) });
  try {
    await ctx.tx(async (uow) => {
      await insertCommand(uow, actor, doc, { status: 'accepted', reason: null, details: null, result: null });
      const result = await handler.run(ctx, uow, actor, parsed.data, {
        commandId: doc.id,
        clientTime: Number(doc.client_time) || 0,
      });
      if (result)
        await uow.trx
          .updateTable('commands')
          .set({ result: JSON.stringify(result) })
          .where('id', '=', doc.id)
          .execute();
    });
  } catch (err) {
    if (err instanceof CommandRejected) return reject(err.reason, err.details);
    if (err instanceof HttpError) return reject(err.message, err.body);
    if (await exists(ctx, doc.id)) return; // a concurrent replay decided it first
    throw err;
  }
}

const exists = async (ctx: AppContext, id: string) =>
  !!(await ctx.db.selectFrom('commands').select('id').where('id', '=', id).executeTakeFirst());
