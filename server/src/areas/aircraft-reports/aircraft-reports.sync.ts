import {
  AIRCRAFT_REPORT_WRITABLE,
  DEVICE_WINDOW_MONTHS,
  FLEET_TYPES,
  type FleetReportDoc,
  fleetCollection,
  toFleetReport,
} from '@ops/shared';
import { type ReportRow, reportDocs } from './aircraft-reports.repository.ts';
import { createReport, deleteReport, editReport, raisedAtOf } from './aircraft-reports.service.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { recordType, type SyncSource } from '../../sync/registry.ts';
import { afterCheckpoint } from '../../sync/checkpoint.ts';
import { sql } from 'kysely';
import { monthsAgo } from '../../sync/table-source.ts';

/**
 * What a device loads first (docs/sync.md, "Bounded devices"): every open or
 * deferred report, and closed ones changed in the last 12 months; older
 * closed reports (the aircraft's history) come through REST when a screen asks.
 */
export const DEVICE_CLOSED_REPORT_MONTHS = DEVICE_WINDOW_MONTHS.closedReports;

/**
 * A device's first pull of reports, as ids in (change_no, id) order: the
 * union of the open and deferred ones (a partial index of migration 0147,
 * `status != 'CLOSED'`, in change order) and the ones changed since `since`
 * ((company_id, modified) index: the window's few thousand), each cut at
 * `limit`. Before, a page walked the company's change order and tested every
 * report: 20,000 rows read for 2,000 sent.
 */
function firstPullIds(companyId: string, after: { seq: number; id: string }, limit: number, since: number) {
  const tail = sql`and r.deleted = 0 and ${afterCheckpoint('r.change_no', 'r.id', after)} order by r.change_no, r.id limit ${limit}`;
  // The literal `r.status != 'CLOSED'` is the partial index's own condition (a parameter would not match it).
  return sql<{ id: string }>`select u.id from (
    select id, change_no from (select r.id, r.change_no from aircraft_reports as r
      where r.company_id = ${companyId} and r.status != 'CLOSED' ${tail}) as o
    union
    select id, change_no from (select r.id, r.change_no from aircraft_reports as r
      where r.company_id = ${companyId} and r.modified >= ${since} ${tail}) as m
  ) as u order by u.change_no, u.id limit ${limit}`;
}

/**
 * Aircraft reports with their MEL/CDL item, limitations and derived status
 * (computed with the shared rules at pull time). Items and limitations are
 * read for the whole page at once; an item change stamps its report's change
 * number, so it travels with the report.
 */
const source: SyncSource<FleetReportDoc> = {
  tables: ['aircraft_reports'],
  async read(db, companyId, after, limit, onlyVisibleTo) {
    let rows: ReportRow[];
    if (onlyVisibleTo) {
      const ids = (
        await firstPullIds(companyId, after, limit, monthsAgo(DEVICE_CLOSED_REPORT_MONTHS)).execute(db)
      ).rows.map((r) => r.id);
      const byId = new Map(
        ids.length
          ? (
              await db
                .selectFrom('aircraft_reports as r')
                .selectAll('r')
                // By key alone (namingSource in db/naming-rows.ts says why): the ids were read for the company.
                .where('r.id', 'in', ids)
                .execute()
            ).map((r) => [r.id, r])
          : [],
      );
      // The database's (change_no, id) order, kept as the ids came.
      rows = ids.flatMap((id) => byId.get(id) ?? []);
    } else
      rows = await db
        .selectFrom('aircraft_reports as r')
        .selectAll('r')
        .where('r.company_id', '=', companyId)
        .where(afterCheckpoint('r.change_no', 'r.id', after))
        .orderBy('r.change_no')
        .orderBy('r.id')
        .limit(limit)
        .execute();
    const docs = await reportDocs(db, companyId, rows, nowSeconds());
    return rows.map((r, i) => ({
      seq: Number(r.change_no),
      id: r.id,
      deleted: !!r.deleted,
      scope: {},
      doc: toFleetReport(docs[i]),
    }));
  },
  // The same two ranges, counted once each report (an open report changed lately is in both).
  async count(db, companyId, upTo) {
    const since = monthsAgo(DEVICE_CLOSED_REPORT_MONTHS);
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from (
      select r.id from aircraft_reports as r where r.company_id = ${companyId} and r.status != 'CLOSED' and r.deleted = 0 and r.change_no <= ${upTo}
      union
      select r.id from aircraft_reports as r where r.company_id = ${companyId} and r.modified >= ${since} and r.deleted = 0 and r.change_no <= ${upTo}
    ) as u`.execute(db);
    return Number(rows[0]?.n ?? 0);
  },
};

const isMel = (t: unknown) => t === 'MEL' || t === 'CDL';
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The `aircraft_report` record type of `fleet`; the report's own type travels
 * as `report_type`.
 */
export const aircraftReportRecords = recordType<FleetReportDoc>(fleetCollection, {
  types: [FLEET_TYPES.report],
  sources: [source],
  async load(db, companyId, id) {
    const row = await db
      .selectFrom('aircraft_reports')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    const [doc] = await reportDocs(db, companyId, [row], nowSeconds());
    return { ...toFleetReport(doc), _deleted: !!row.deleted };
  },
  async write(ctx, actor, next, master) {
    const incoming = next as FleetReportDoc & { _deleted?: boolean };
    const stored = master as (FleetReportDoc & { _deleted?: boolean }) | null;
    if (incoming._deleted) {
      if (!stored || stored._deleted) return { ok: true };
      await ctx.tx((uow) => deleteReport(uow, actor, incoming.id));
      return { ok: true };
    }
    if (stored?._deleted) return { ok: false, reason: 'This report was deleted' };
    if (!stored) {
      // Decisions on MEL and CDL items are commands: the server computes the window and checks the roles once.
      if (isMel(incoming.report_type))
        return { ok: false, reason: 'Raise MEL and CDL items with the mel.raise command' };
      const fields: Record<string, unknown> = {
        aircraft_id: incoming.aircraft_id,
        flight_id: incoming.flight_id,
        type: incoming.report_type,
      };
      for (const f of AIRCRAFT_REPORT_WRITABLE) fields[f] = incoming[f];
      await ctx.tx((uow) =>
        createReport(
          uow,
          actor,
          { AircraftReport: fields },
          { id: incoming.id, raisedAt: raisedAtOf(Number(incoming.created) || 0, nowSeconds()) },
        ),
      );
      return { ok: true };
    }
    const changed: Record<string, unknown> = {};
    for (const f of AIRCRAFT_REPORT_WRITABLE) if (!same(incoming[f], stored[f])) changed[f] = incoming[f];
    if (!Object.keys(changed).length) return { ok: true };
    await ctx.tx((uow) => editReport(uow, actor, incoming.id, { AircraftReport: changed }));
    return { ok: true };
  },
});
