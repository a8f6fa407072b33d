import {
  DEVICE_WINDOW_MONTHS,
  FLIGHT_WRITABLE_FIELDS,
  type FlightDoc,
  flightsCollection,
  type ReferenceDoc,
  referenceCollection,
} from '@ops/shared';
import { type Kysely, sql } from 'kysely';
import { airportReference } from '../airports/airports.presenter.ts';
import { presentFlightType } from '../flight-types/flight-types.presenter.ts';
import { flightTypesRepository } from '../flight-types/flight-types.repository.ts';
import { wallClock } from '@ops/shared/rules/flights/clock';
import { ZFlightFields, type TFlightFields } from './flights.schema.ts';
import { saveFlight } from './flights.service.ts';
import type { DB } from '../../db/schema.ts';
import { validationFailed, zodFieldErrors } from '../../http/errors.ts';
import { defineCollection, type SourceRow, type SyncSource } from '../../sync/registry.ts';
import { countCompanyRows, monthsAgo, tableSource } from '../../sync/table-source.ts';
import { seesAllFlights } from '@ops/shared/rules/flights/policy';
import { afterCheckpoint } from '../../sync/checkpoint.ts';
import { type NamingRows, namingSource } from '../../db/naming-rows.ts';

const columns = (db: Kysely<DB>) =>
  db
    .selectFrom('flights as f')
    .innerJoin('companies as c', 'c.id', 'f.company_id')
    .selectAll('f')
    .select(['c.timezone as company_zone', 'c.flight_timezone as flight_zone']);

const query = (db: Kysely<DB>, companyId: string) => columns(db).where('f.company_id', '=', companyId);

type Row = Awaited<ReturnType<ReturnType<typeof query>['execute']>>[number];

const num = (v: number | null) => (v === null ? null : Number(v));

export function toFlightDoc(f: Row): FlightDoc {
  const zone = f.flight_zone ?? f.company_zone;
  return {
    id: f.id,
    date: f.date,
    status: f.status,
    callsign: f.callsign,
    aircraft_id: f.aircraft_id,
    flight_type_id: f.flight_type_id,
    base_id: f.base_id,
    pic_id: f.pic_id,
    sic_id: f.sic_id,
    supervisor_id: f.supervisor_id,
    user_id: f.user_id,
    departure_airport: f.departure_airport,
    landing_airport: f.landing_airport,
    offblocks_time: wallClock(f.offblocks, zone),
    takeoff_time: wallClock(f.takeoff, zone),
    landing_time: wallClock(f.landing, zone),
    onblocks_time: wallClock(f.onblocks, zone),
    offblocks: num(f.offblocks),
    takeoff: num(f.takeoff),
    landing: num(f.landing),
    onblocks: num(f.onblocks),
    starts: Number(f.starts),
    block_time: Number(f.block_time),
    flight_time: Number(f.flight_time),
    night_flight_time: Number(f.night_flight_time),
    ifr_flight_time: Number(f.ifr_flight_time),
    rules: f.rules,
    crosscountry: !!f.crosscountry,
    multiengine: !!f.multiengine,
    landings: Number(f.landings),
    night_landings: Number(f.night_landings),
    pax: Number(f.pax),
    route: f.route,
    remarks: f.remarks,
    confirmed_at: num(f.confirmed_at),
    dispatched_at: num(f.dispatched_at),
    modified: Number(f.modified),
  };
}

/** Writable fields of a pushed document as the REST body would carry them. */
const FIELD_MAP: ReadonlyArray<keyof FlightDoc & keyof TFlightFields> = FLIGHT_WRITABLE_FIELDS;

/**
 * The REST body for a pushed document: a new flight sends every writable
 * field; an edit only those the device changed, so a stored night time
 * computed by the server is not mistaken for one the pilot typed. A status
 * other than DRAFT or SCHEDULED cannot be pushed (confirm and dispatch are commands).
 */
function bodyOf(next: FlightDoc, master: FlightDoc | null): TFlightFields {
  const raw: Record<string, unknown> = {};
  for (const k of FIELD_MAP) {
    const v = next[k];
    if (master && JSON.stringify(v ?? null) === JSON.stringify(master[k] ?? null)) continue;
    if (v === undefined) continue;
    if (k === 'night_flight_time' && v === null && !master) continue;
    raw[k] = v;
  }
  if (master) raw.id = master.id;
  const parsed = ZFlightFields.safeParse(raw);
  if (!parsed.success) throw validationFailed(zodFieldErrors(parsed.error));
  return parsed.data;
}

/**
 * What a device loads first (docs/sync.md, "Bounded devices"): an office device
 * (every flight of the company) the flights dated in the last 12 months and
 * the future, older ones through REST when a screen asks; a pilot's device
 * every flight naming the pilot (their logbook).
 */
export const OFFICE_DEVICE_FLIGHT_MONTHS = DEVICE_WINDOW_MONTHS.flights;

const flightsFirstPull = (viewer: { role: number }) =>
  seesAllFlights(viewer)
    ? sql<boolean>`f.date >= ${new Date(monthsAgo(OFFICE_DEVICE_FLIGHT_MONTHS) * 1000).toISOString().slice(0, 10)}`
    : null;

const flightsScope = flightsCollection.rows;
if (flightsScope.kind !== 'involved') throw new Error('flights: the adapter reads an involved row scope');

/** The crew columns a non-staff viewer's flights are read by (the row scope's own fields). */
export const flightNaming: NamingRows = { table: 'flights', alias: 'f', columns: flightsScope.fields };

/**
 * Flights of the company. A pilot's (or student's) load from nothing reads the
 * flights naming them per crew column (`namingSource`, one index range of
 * migration 0147 each) instead of walking the company's 100,000 flights;
 * office loads and every later pull are the table source's.
 */
const flightsSource = namingSource(
  tableSource({
    tables: ['flights'],
    alias: 'f',
    rows: flightsScope,
    query,
    toDoc: toFlightDoc,
    firstPull: flightsFirstPull,
  }),
  {
    ...flightNaming,
    naming: (viewer) => !seesAllFlights(viewer),
    bound: (viewer) => flightsFirstPull(viewer),
    load: (db, ids) => columns(db).where('f.id', 'in', ids).execute(),
    toDoc: toFlightDoc,
  },
);

/** The `flights` collection (involved scope: staff see every flight, others those naming them). */
export const flightsServerCollection = defineCollection<FlightDoc>({
  def: flightsCollection,
  sources: [flightsSource],
  async load(db, companyId, id) {
    const row = await query(db, companyId).where('f.id', '=', id).executeTakeFirst();
    return row ? { ...toFlightDoc(row), _deleted: !!row.deleted } : null;
  },
  async write(ctx, actor, next, master) {
    if ((next as FlightDoc & { _deleted?: boolean })._deleted)
      return { ok: false, reason: 'A flight is canceled with POST /flights/cancel.json, not deleted from a device' };
    const body = bodyOf(next, master);
    await ctx.tx((uow) => saveFlight(uow, actor, body, master ? {} : { newId: next.id }));
    return { ok: true };
  },
});

/**
 * Flight types as `reference` documents, with their required certificates
 * (read for the whole page in one query). A soft-deleted type stays a live
 * document with `FlightType.deleted`, since old flights still name it.
 */
const flightTypeReferenceSource: SyncSource<ReferenceDoc> = {
  tables: ['flight_types'],
  async read(db, companyId, after, limit, onlyVisibleTo) {
    let q = db
      .selectFrom('flight_types as t')
      .select([
        't.id',
        't.name',
        't.color',
        't.booking',
        't.pic_flight_time',
        't.sic_flight_time',
        't.supervisor_flight_time',
        't.sort_order',
        't.deleted',
        't.created',
        't.modified',
        't.change_no',
      ])
      .where('t.company_id', '=', companyId)
      .where(afterCheckpoint('t.change_no', 't.id', after));
    if (onlyVisibleTo) q = q.where('t.deleted', '=', 0);
    const rows = await q.orderBy('t.change_no').orderBy('t.id').limit(limit).execute();
    const reqs = await flightTypesRepository.requirements(
      db,
      companyId,
      rows.map((r) => r.id),
    );
    return rows.map(
      (r): SourceRow<ReferenceDoc> => ({
        seq: Number(r.change_no),
        id: r.id,
        deleted: false,
        scope: {},
        doc: {
          id: r.id,
          type: 'flight_type',
          name: r.name,
          data: { ...presentFlightType(r, reqs.get(r.id) ?? []) },
          updated: Number(r.modified),
        },
      }),
    );
  },
  count: (db, companyId, upTo) => countCompanyRows(db, 'flight_types', companyId, upTo),
};

/** Airports the company's flights used (company_airports), as `airport` reference documents. */
const companyAirportSource = tableSource({
  tables: ['company_airports'],
  alias: 'ca',
  rows: { kind: 'company' },
  query: (db, companyId) =>
    db
      .selectFrom('company_airports as ca')
      .select(['ca.id', 'ca.icao', 'ca.change_no', 'ca.deleted', 'ca.modified'])
      .where('ca.company_id', '=', companyId),
  toDoc: (r): ReferenceDoc => airportReference(r.icao, Number(r.modified)),
});

/**
 * Airports of the company's bases, whether or not a flight used them yet.
 * Never a deletion: a closed base's airport may still be on old flights. Rows
 * are keyed `<base id>:airport`, so they never tie with the base's own
 * reference row in the merged (change_no, id) order of a pull.
 */
const baseAirportSource: SyncSource<ReferenceDoc> = {
  tables: ['bases'],
  async read(db, companyId, after, limit, onlyVisibleTo) {
    const key = sql<string>`(b.id || ':airport')`;
    let q = db
      .selectFrom('bases as b')
      .select(['b.id', 'b.airport_id', 'b.change_no', 'b.modified'])
      .where('b.company_id', '=', companyId)
      .where('b.airport_id', 'is not', null)
      .where(afterCheckpoint('b.change_no', key, after));
    if (onlyVisibleTo) q = q.where('b.deleted', '=', 0);
    const rows = await q.orderBy('b.change_no').orderBy(key).limit(limit).execute();
    return rows.map(
      (r): SourceRow<ReferenceDoc> => ({
        seq: Number(r.change_no),
        id: `${r.id}:airport`,
        deleted: false,
        scope: {},
        doc: airportReference(r.airport_id ?? '', Number(r.modified)),
      }),
    );
  },
  count: (db, companyId, upTo) => countCompanyRows(db, 'bases', companyId, upTo, sql<boolean>`airport_id is not null`),
};

/** Flight types and airports as `reference` documents. */
export const flightsReference = defineCollection<ReferenceDoc>({
  def: referenceCollection,
  sources: [flightTypeReferenceSource, companyAirportSource, baseAirportSource],
});
