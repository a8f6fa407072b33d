import { isUuid } from '@ops/shared';
import { REPORT_PLANS } from '@ops/shared/rules/aircraft/policy';
import { z } from 'zod';
import type { Actor } from '../../http/actor.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { CommandRejected, defineCommand } from '../../sync/index.ts';
import { closeItem, createReport, extendItem, type MelDecision, raisedAtOf } from './aircraft-reports.service.ts';

/**
 * MEL and CDL decisions taken once by the server (docs/sync.md, commands): a
 * device may act offline and show its own result at once (computed with the
 * shared rules), the server re-decides with the rights and the state at push
 * time, through the same service as REST.
 */

function requirePlan(actor: Actor) {
  if (!(REPORT_PLANS as readonly string[]).includes(actor.plan))
    throw new CommandRejected('Your company plan does not include aircraft reports');
}

function decided<T>(d: MelDecision<T>): T {
  if (!d.ok) throw new CommandRejected(d.reason, { code: d.code });
  return d.value;
}

const zReportId = z.string().min(1).max(64);

export const melRaiseCommand = defineCommand({
  name: 'mel.raise',
  args: z.object({
    AircraftReport: z.record(z.string(), z.unknown()),
    MelItem: z.record(z.string(), z.unknown()).optional(),
    MelItemLimitation: z.array(z.unknown()).optional(),
    /** The device's id for the new report, so its local document and the server's are one. */
    id: z.uuid().optional(),
  }),
  async run(_ctx, uow, actor, args, meta) {
    requirePlan(actor);
    const now = nowSeconds();
    const created = await createReport(
      uow,
      actor,
      {
        AircraftReport: args.AircraftReport,
        MelItem: args.MelItem ?? {},
        MelItemLimitation: args.MelItemLimitation ?? [],
      },
      {
        id: args.id ?? (isUuid(args.AircraftReport.id) ? args.AircraftReport.id : undefined),
        raisedAt: raisedAtOf(meta.clientTime, now),
        melOnly: true,
      },
    );
    return {
      report_id: created.id,
      mel_item_id: created.mel_item_id,
      starts: created.starts,
      expires: created.expires,
    };
  },
});

export const melExtendCommand = defineCommand({
  name: 'mel.extend',
  args: z.object({
    report_id: zReportId,
    extended_until: z.number().int().nullable().optional(),
    reason: z.string().max(1000).nullable().optional(),
  }),
  async run(_ctx, uow, actor, args) {
    requirePlan(actor);
    const v = decided(
      await extendItem(uow, actor, args.report_id, {
        extended_until: args.extended_until ?? null,
        reason: args.reason ?? null,
      }),
    );
    return { report_id: args.report_id, extended_until: v.extended_until };
  },
});

export const melCloseCommand = defineCommand({
  name: 'mel.close',
  args: z.object({ report_id: zReportId, rectification: z.string().max(4000).nullable().optional() }),
  async run(_ctx, uow, actor, args) {
    requirePlan(actor);
    const v = decided(await closeItem(uow, actor, args.report_id, args.rectification ?? null));
    return { report_id: args.report_id, closed: v.closed };
  },
});
