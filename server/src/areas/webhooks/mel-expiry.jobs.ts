import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/scheduler.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { openMelItemsQuery } from '../aircraft-reports/aircraft-block.service.ts';
import { publishAircraftState } from '../aircraft-reports/aircraft-reports.webhooks.ts';
import { companyTimeZone, deriveAll } from '../aircraft-reports/mel-state.repository.ts';
import './webhooks.tables.ts';

export const MEL_EXPIRY_JOB = 'webhooks.mel-expiry';

/**
 * MEL and CDL items expire as time passes or flights are confirmed, with no
 * write of their own: this pass finds, per company, the aircraft with an
 * expired item not yet published or whose block state differs from the one
 * last published, and publishes each in its own transaction
 * (`publishAircraftState`, which re-reads under the aircraft's mark lock).
 * Closing or extending an item publishes at once, in the write's transaction;
 * this pass catches the rest (expiry by time or counters, a deleted item)
 * within one interval.
 */
export async function runMelExpiry(
  ctx: AppContext,
  now = nowSeconds(),
): Promise<{ expired: number; blocked: number; unblocked: number }> {
  const out = { expired: 0, blocked: 0, unblocked: 0 };
  const open = await ctx.db
    .selectFrom('aircraft_reports')
    .select('company_id')
    .distinct()
    .where('deleted', '=', 0)
    .where('type', 'in', ['MEL', 'CDL'])
    .where('status', '!=', 'CLOSED')
    .execute();
  const marked = await ctx.db
    .selectFrom('aircraft_block_marks')
    .select('company_id')
    .distinct()
    .where('blocked', '=', 1)
    .execute();
  for (const companyId of new Set([...open, ...marked].map((r) => r.company_id))) {
    const zone = await companyTimeZone(ctx.db, companyId);
    const rows = await openMelItemsQuery(ctx.db, companyId).execute();
    const derived = await deriveAll(
      ctx.db,
      companyId,
      rows.map((r) => ({ ...r, key: r.report_id, raisedAt: Number(r.raised_at) })),
      now,
      zone,
    );
    const published = new Set(
      (
        await ctx.db
          .selectFrom('mel_expiry_marks')
          .select(['mel_item_id', 'extended'])
          .where('company_id', '=', companyId)
          .execute()
      ).map((m) => `${m.mel_item_id}:${m.extended}`),
    );
    const blockedNow = new Set<string>();
    const due = new Set<string>();
    for (const r of rows) {
      if (derived.get(r.report_id)?.status !== 'EXPIRED') continue;
      blockedNow.add(r.aircraft_id);
      if (!published.has(`${r.mel_item_id}:${r.extended ? 1 : 0}`)) due.add(r.aircraft_id);
    }
    const marks = await ctx.db
      .selectFrom('aircraft_block_marks')
      .select(['aircraft_id', 'blocked'])
      .where('company_id', '=', companyId)
      .execute();
    const markedBlocked = new Set(marks.filter((m) => m.blocked).map((m) => m.aircraft_id));
    for (const a of blockedNow) if (!markedBlocked.has(a)) due.add(a);
    for (const a of markedBlocked) if (!blockedNow.has(a)) due.add(a);
    for (const aircraftId of due) {
      const r = await ctx.tx((uow) => publishAircraftState(uow, companyId, zone, aircraftId, now));
      out.expired += r.expired;
      if (r.block === 'blocked') out.blocked++;
      if (r.block === 'unblocked') out.unblocked++;
    }
  }
  return out;
}

export const melExpiryJob: Job = {
  name: MEL_EXPIRY_JOB,
  everySeconds: 60,
  run: async (ctx) => void (await runMelExpiry(ctx)),
};
