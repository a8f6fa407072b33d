import { type Expression, type ExpressionBuilder, type Kysely, PostgresAdapter, type SqlBool, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import './flights.tables.ts';
import { type Param, runPrepared } from './prepared.repository.ts';

/** Statuses a flight can be stored with (DELAYED is computed on read). */
export const STORED_STATUSES = ['DRAFT', 'SCHEDULED', 'DISPATCHED', 'LANDED', 'CANCELED', 'DELETED'] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];
/** Listed by default: the legacy `deleted = 0`. */
export const LISTED: readonly StoredStatus[] = ['DRAFT', 'SCHEDULED', 'DISPATCHED', 'LANDED'];

/**
 * One flight with every related record the list and view show, in one query
 * (left joins: Base, Aircraft with model and maker, FlightType, Pic, Sic,
 * Supervisor). Company-scoped by its first argument.
 */
const flightsFrom = (db: Kysely<DB>) => db.selectFrom('flights as f');
type FlightsSource = ReturnType<typeof flightsFrom>;

export function flightsQuery(db: Kysely<DB>, companyId: string, source: FlightsSource = flightsFrom(db)) {
  return source
    .leftJoin('bases as b', (j) => j.onRef('b.id', '=', 'f.base_id').on('b.company_id', '=', companyId))
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'f.aircraft_id').on('a.company_id', '=', companyId))
    .leftJoin('aircraft_models as am', 'am.id', 'a.model_id')
    .leftJoin('aircraft_manufacturers as amf', 'amf.id', 'am.manufacturer_id')
    .leftJoin('flight_types as t', (j) => j.onRef('t.id', '=', 'f.flight_type_id').on('t.company_id', '=', companyId))
    .leftJoin('users as pic', (j) => j.onRef('pic.id', '=', 'f.pic_id').on('pic.company_id', '=', companyId))
    .leftJoin('users as sic', (j) => j.onRef('sic.id', '=', 'f.sic_id').on('sic.company_id', '=', companyId))
    .select([
      'f.id',
      'f.company_id',
      'f.date',
      'f.status',
      'f.callsign',
      'f.aircraft_id',
      'f.flight_type_id',
      'f.base_id',
      'f.pic_id',
      'f.sic_id',
      'f.supervisor_id',
      'f.user_id',
      'f.departure_airport',
      'f.landing_airport',
      'f.offblocks',
      'f.takeoff',
      'f.landing',
      'f.onblocks',
      'f.starts',
      'f.block_time',
      'f.flight_time',
      'f.night_flight_time',
      'f.ifr_flight_time',
      'f.rules',
      'f.crosscountry',
      'f.multiengine',
      'f.landings',
      'f.night_landings',
      'f.engine_starts',
      'f.pax',
      'f.oil',
      'f.fuel',
      'f.cargo',
      'f.route',
      'f.remarks',
      'f.pf',
      'f.confirmed_at',
      'f.confirmed_by',
      'f.dispatched_at',
      'f.dispatched_by',
      'f.change_no',
      'f.deleted',
      'f.created',
      'f.modified',
      'b.name as base_name',
      'b.airport_id as base_airport_id',
      'a.registration as ac_registration',
      'a.multiengine as ac_multiengine',
      'a.multipilot as ac_multipilot',
      'a.simulator as ac_simulator',
      'a.photo as ac_photo',
      'a.adsb as ac_adsb',
      'a.active as ac_active',
      'a.hours as ac_hours',
      'a.landings as ac_landings',
      'a.user_id as ac_user_id',
      'am.name as ac_model_name',
      'am.icao as ac_model_icao',
      'amf.name as ac_manufacturer_name',
      't.name as type_name',
      't.color as type_color',
      't.booking as type_booking',
      't.pic_flight_time as type_pic',
      't.sic_flight_time as type_sic',
      't.supervisor_flight_time as type_supervisor',
      't.deleted as type_deleted',
      'pic.name as pic_name',
      'pic.surname as pic_surname',
      'pic.user_group_id as pic_group',
      'pic.active as pic_active',
      'pic.pilot as pic_pilot',
      'pic.deleted as pic_deleted',
      'sic.name as sic_name',
      'sic.surname as sic_surname',
      'sic.user_group_id as sic_group',
      'sic.active as sic_active',
      'sic.pilot as sic_pilot',
      'sic.deleted as sic_deleted',
    ])
    .where('f.company_id', '=', companyId);
}

export type FlightJoinedRow = Awaited<ReturnType<ReturnType<typeof flightsQuery>['execute']>>[number];

export interface FlightFilters {
  /** Stored statuses listed in full. */
  statuses: readonly string[];
  /** With `scheduledPart`: the SCHEDULED flights that read DELAYED (off-blocks before this) or those that do not. */
  delayedBefore?: number;
  scheduledPart?: 'delayed' | 'on_time';
  fromStarts?: number;
  toStarts?: number;
  aircraftId?: string;
  pilotId?: string;
  baseId?: string;
  flightTypeId?: string;
  /** Roles above 170: only flights naming this user (the `involved` row scope). */
  involvedUserId?: string;
}

type FlightsEB = ExpressionBuilder<DB & { f: DB['flights'] }, 'f'>;

/** Which filters are set: the shape of the SQL (values are parameters). */
const shapeOf = (f: FlightFilters) =>
  [
    f.statuses.length,
    f.scheduledPart === 'delayed' ? 'd' : f.scheduledPart === 'on_time' ? 'o' : '',
    f.fromStarts !== undefined ? 'f' : '',
    f.toStarts !== undefined ? 't' : '',
    f.aircraftId ? 'a' : '',
    f.baseId ? 'b' : '',
    f.flightTypeId ? 'y' : '',
    f.pilotId ? 'p' : '',
    f.involvedUserId ? 'i' : '',
  ].join('');

/** The named values of the filter expression (see `filterExpression`). */
function filterValues(companyId: string, f: FlightFilters): Record<string, unknown> {
  const v: Record<string, unknown> = {
    companyId,
    delayedBefore: f.delayedBefore,
    fromStarts: f.fromStarts,
    toStarts: f.toStarts,
  };
  Object.assign(v, {
    aircraftId: f.aircraftId,
    baseId: f.baseId,
    flightTypeId: f.flightTypeId,
    pilotId: f.pilotId,
    involvedUserId: f.involvedUserId,
  });
  f.statuses.forEach((s, i) => {
    v[`status${i}`] = s;
  });
  return v;
}

/**
 * The filters as one WHERE expression, shared by the page query and its
 * count. Values come through `p`: the real ones, or placeholders when the
 * shape is compiled once (prepared.ts).
 */
export function filterExpression(eb: FlightsEB, f: FlightFilters, p: Param, opts: { seatIndex?: boolean } = {}) {
  const parts = [eb('f.company_id', '=', p<string>('companyId'))];
  // `seatIndex` (SQLite only): a person's branch must read its seat's (company, seat,
  // starts, id, status) index. SQLite (no statistics) ties it with (company, status,
  // starts, id), which also gives the order, and took that one: every LANDED flight of
  // the company, three times (office list, pilot + status:LANDED, 660 ms of 100,000
  // flights). As an expression the status is still checked from the seat index's last
  // column, but leads no index. PostgreSQL plans by statistics and misjudges the
  // expression (a sequential scan), so it keeps the column.
  const status = opts.seatIndex ? sql<string>`(f.status || '')` : sql.ref<string>('f.status');
  const listed = f.statuses.length
    ? eb(
        status,
        'in',
        f.statuses.map((_, i) => p<string>(`status${i}`)),
      )
    : null;
  if (f.scheduledPart) {
    const before = p<number>('delayedBefore');
    const part = eb.and([
      eb('f.status', '=', 'SCHEDULED'),
      f.scheduledPart === 'delayed'
        ? eb('f.offblocks', '<', before)
        : eb.or([eb('f.offblocks', 'is', null), eb('f.offblocks', '>=', before)]),
    ]);
    parts.push(listed ? eb.or([listed, part]) : part);
  } else if (listed) parts.push(listed);
  if (f.fromStarts !== undefined) parts.push(eb('f.starts', '>=', p<number>('fromStarts')));
  if (f.toStarts !== undefined) parts.push(eb('f.starts', '<', p<number>('toStarts')));
  if (f.aircraftId) parts.push(eb('f.aircraft_id', '=', p<string>('aircraftId')));
  if (f.baseId) parts.push(eb('f.base_id', '=', p<string>('baseId')));
  if (f.flightTypeId) parts.push(eb('f.flight_type_id', '=', p<string>('flightTypeId')));
  if (f.pilotId) {
    const u = p<string>('pilotId');
    parts.push(eb.or([eb('f.pic_id', '=', u), eb('f.sic_id', '=', u), eb('f.supervisor_id', '=', u)]));
  }
  if (f.involvedUserId) {
    const u = p<string>('involvedUserId');
    parts.push(
      eb.or([eb('f.pic_id', '=', u), eb('f.sic_id', '=', u), eb('f.supervisor_id', '=', u), eb('f.user_id', '=', u)]),
    );
  }
  return eb.and(parts);
}

type Seat = 'f.pic_id' | 'f.sic_id' | 'f.supervisor_id' | 'f.user_id';

/** The person filter a count is split by: the involvement scope (with the creator), else the pilot filter. */
function personSeats(f: FlightFilters): { key: 'involvedUserId' | 'pilotId'; seats: Seat[] } | null {
  if (f.involvedUserId)
    return { key: 'involvedUserId', seats: ['f.pic_id', 'f.sic_id', 'f.supervisor_id', 'f.user_id'] };
  if (f.pilotId) return { key: 'pilotId', seats: ['f.pic_id', 'f.sic_id', 'f.supervisor_id'] };
  return null;
}

const onSqlite = (db: Kysely<DB>) => !(db.getExecutor().adapter instanceof PostgresAdapter);

/** The real values, for one-off builders (streams) that are not prepared. */
const direct = (companyId: string, f: FlightFilters): Param => {
  const v = filterValues(companyId, f);
  return <T>(name: string) => v[name] as T;
};

/** True when the list is the plain company list, answered from the counters. */
export const isUnfiltered = (f: FlightFilters) =>
  f.scheduledPart === undefined &&
  f.fromStarts === undefined &&
  f.toStarts === undefined &&
  !f.aircraftId &&
  !f.pilotId &&
  !f.baseId &&
  !f.flightTypeId &&
  !f.involvedUserId;

/**
 * The ids that can be on the page of a person filter: per seat, the first
 * `window` (offset + limit) matching rows in page order, each a range of that
 * seat's (company, seat, starts, id) index. Ordering the OR of the seats
 * instead walks the company's (company, starts, id) index until enough rows
 * match: every flight of the company for a person with few or none.
 */
function personCandidates(db: Kysely<DB>, f: FlightFilters, p: Param) {
  const person = personSeats(f);
  if (!person) return null;
  const u = p<string>(person.key);
  const branches = person.seats.map((seat, i) => {
    const top = db
      .selectFrom('flights as f')
      .select('f.id')
      .where((eb) => filterExpression(eb as unknown as FlightsEB, f, p, { seatIndex: onSqlite(db) }))
      .where(seat, '=', u)
      .orderBy('f.starts', 'desc')
      .orderBy('f.id', 'desc')
      .limit(p<number>('window'));
    // Wrapped: a compound select takes ORDER BY and LIMIT only inside a subquery.
    return db.selectFrom(top.as(`s${i}`)).select(`s${i}.id`);
  });
  // UNION, not UNION ALL: a person in two seats of one flight must not list it twice.
  return branches.slice(1).reduce((all, b) => all.union(b), branches[0]);
}

const pageQuery = (db: Kysely<DB>, f: FlightFilters, p: Param) => {
  const candidates = personCandidates(db, f, p);
  // The candidates first and CROSS JOIN: SQLite keeps them as the outer loop and
  // reads each flight by primary key (as `f.id IN (...)` or an inner join after
  // the left joins, it walked the company's rows in page order); PostgreSQL
  // plans it as the inner join it is. The cast only drops the `c` alias, which
  // nothing after this refers to.
  const source = candidates
    ? (db
        .selectFrom(candidates.as('c'))
        .crossJoin('flights as f')
        .whereRef('f.id', '=', 'c.id') as unknown as FlightsSource)
    : undefined;
  return flightsQuery(db, p<string>('companyId'), source)
    .where((eb) => filterExpression(eb as unknown as FlightsEB, f, p))
    .orderBy('f.starts', 'desc')
    .orderBy('f.id', 'desc')
    .limit(p<number>('limit'))
    .offset(p<number>('offset'));
};

/** The page query with its values inlined as parameters: its plan for the benchmark (EXPLAIN, docs/performance.md). */
export function compiledPage(db: Kysely<DB>, companyId: string, f: FlightFilters, limit: number, offset: number) {
  const v: Record<string, unknown> = { ...filterValues(companyId, f), limit, offset, window: offset + limit };
  return pageQuery(db, f, <T>(name: string) => v[name] as T).compile();
}

export const flightsRepository = {
  /** The page, newest first, paginated in SQL (compiled once per filter shape). */
  page(db: Kysely<DB>, companyId: string, f: FlightFilters, limit: number, offset: number): Promise<FlightJoinedRow[]> {
    return runPrepared<FlightJoinedRow>(db, `flights.page:${shapeOf(f)}`, (p) => pageQuery(db, f, p), {
      ...filterValues(companyId, f),
      limit,
      offset,
      window: offset + limit,
    });
  },
  /** Rows strictly after a keyset position, newest first (the batches of a streamed page). */
  after(db: Kysely<DB>, companyId: string, f: FlightFilters, last: { starts: number; id: string }, limit: number) {
    const p = direct(companyId, f);
    return (
      flightsQuery(db, companyId)
        .where((eb) => filterExpression(eb as unknown as FlightsEB, f, p))
        // A row value: both dialects read it as one range of the (company, starts, id) index.
        .where(sql<boolean>`(f.starts, f.id) < (${last.starts}, ${last.id})`)
        .orderBy('f.starts', 'desc')
        .orderBy('f.id', 'desc')
        .limit(limit)
        .execute()
    );
  },
  async count(db: Kysely<DB>, companyId: string, f: FlightFilters): Promise<number> {
    if (isUnfiltered(f)) {
      const rows = await runPrepared<{ n: number | string | null }>(
        db,
        `flights.counters:${f.statuses.length}`,
        (p) =>
          db
            .selectFrom('flight_counts')
            .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('count'), sql<number>`0`).as('n'))
            .where('company_id', '=', p<string>('companyId'))
            .where(
              'status',
              'in',
              f.statuses.map((_, i) => p<string>(`status${i}`)),
            ),
        filterValues(companyId, f),
      );
      return Number(rows[0]?.n ?? 0);
    }
    const counted = (p: Param, extra?: (eb: FlightsEB) => Expression<SqlBool>) => {
      const q = db
        .selectFrom('flights as f')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => filterExpression(eb as unknown as FlightsEB, f, p, { seatIndex: !!extra && onSqlite(db) }));
      return extra ? q.where((eb) => extra(eb as unknown as FlightsEB)) : q;
    };
    const person = personSeats(f);
    const rows = await runPrepared<{ n: number | string }>(
      db,
      `flights.count:${shapeOf(f)}`,
      (p) => {
        if (!person) return counted(p);
        // One count per seat, each row in the first seat naming the person: every
        // branch is a range of that seat's (company, seat, starts) index, where
        // the OR of the seats would scan the whole company on SQLite.
        const u = p<string>(person.key);
        const branches = person.seats.map((seat, i) =>
          counted(p, (eb) =>
            eb.and([
              eb(seat, '=', u),
              ...person.seats.slice(0, i).map((before) => eb.or([eb(before, 'is', null), eb(before, '!=', u)])),
            ]),
          ),
        );
        return db.selectNoFrom(
          sql<number>`${sql.join(
            branches.map((b) => sql`(${b})`),
            sql` + `,
          )}`.as('n'),
        );
      },
      filterValues(companyId, f),
    );
    return Number(rows[0]?.n ?? 0);
  },
};

/** Adds `delta` flights of `status` to the company's counters (same transaction as the write). */
export async function adjustFlightCount(
  db: Kysely<DB>,
  companyId: string,
  status: string,
  delta: number,
): Promise<void> {
  if (!delta) return;
  await db
    .insertInto('flight_counts')
    .values({ company_id: companyId, status, count: delta })
    .onConflict((oc) =>
      oc.columns(['company_id', 'status']).doUpdateSet({ count: sql<number>`flight_counts.count + ${delta}` }),
    )
    .execute();
}
