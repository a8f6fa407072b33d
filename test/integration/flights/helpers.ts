import { uuidv7 } from '@ops/shared';
import type { TestServer } from '../../setup/server.ts';

/** Signs in once per email for a suite. */
export function tokenCache(get: () => TestServer) {
  const tokens: Record<string, string> = {};
  return async (email: string) => {
    tokens[email] ??= await get().login(email);
    return tokens[email];
  };
}

export async function typeIds(s: TestServer, token: string): Promise<Record<string, string>> {
  const r = await s.api('GET', '/flight_types/index.json', { token });
  return Object.fromEntries(r.body.flight_types.map((x: any) => [x.FlightType.name, x.FlightType.id]));
}

/** A landed one-hour solo flight of the fixtures' pilot on EC-ABC at Cuatro Vientos (LECU), on `date`. */
export const soloFlight = (s: TestServer, types: Record<string, string>, date: string) => ({
  date,
  aircraft_id: s.refs.aircraft['EC-ABC'],
  flight_type_id: types.Solo,
  pic_id: s.userId('pilot@skyline.test'),
  departure_airport: 'LECU',
  landing_airport: 'LECU',
  offblocks_time: '10:00',
  takeoff_time: '10:10',
  landing_time: '11:05',
  onblocks_time: '11:15',
  landings: 1,
});

export const saveFlight = (s: TestServer, token: string, Flight: Record<string, unknown>) =>
  s.api('POST', '/flights/edit.json', { token, body: { Flight } });

/** Creates a flight and answers its id (fails the test on any other answer). */
export async function createFlight(s: TestServer, token: string, Flight: Record<string, unknown>): Promise<string> {
  const r = await saveFlight(s, token, Flight);
  if (r.status !== 200 || !r.body.result) throw new Error(`create flight: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

export const flightRow = (s: TestServer, id: string) =>
  s.ctx.db.selectFrom('flights').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
export const aircraftRow = (s: TestServer, id: string) =>
  s.ctx.db
    .selectFrom('aircraft')
    .select(['hours', 'landings', 'flights', 'change_no'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
export const changesOf = (s: TestServer, id: string) =>
  s.ctx.db
    .selectFrom('flight_changes')
    .selectAll()
    .where('flight_id', '=', id)
    .orderBy('created')
    .orderBy('id')
    .execute();

export const utc = (iso: string) => Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`) / 1000;

/** Sets a company flag (companies.flags JSON) directly; the settings endpoint belongs to another area. */
export async function setFlag(s: TestServer, companyId: string, flag: string, on: boolean) {
  const row = await s.ctx.db
    .selectFrom('companies')
    .select('flags')
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  const flags = { ...JSON.parse(row.flags), [flag]: on };
  await s.ctx.db
    .updateTable('companies')
    .set({ flags: JSON.stringify(flags) })
    .where('id', '=', companyId)
    .execute();
}

/** Grants or withdraws a permission key for a role in a company. */
export async function setPermission(s: TestServer, companyId: string, role: number, key: string, allowed: boolean) {
  await s.ctx.db
    .deleteFrom('company_permissions')
    .where('company_id', '=', companyId)
    .where('role', '=', role)
    .where('key', '=', key)
    .execute();
  await s.ctx.db
    .insertInto('company_permissions')
    .values({ company_id: companyId, role, key, allowed: allowed ? 1 : 0 })
    .execute();
}

/**
 * An open MEL item whose calendar window ended yesterday, inserted through the
 * data layer (the report endpoints belong to the fleet area).
 */
export async function insertExpiredMel(
  s: TestServer,
  companyId: string,
  aircraftId: string,
  opts: { ata: string; category: string; title: string },
) {
  const now = Math.floor(Date.now() / 1000);
  const reportId = uuidv7();
  await s.ctx.db
    .insertInto('aircraft_reports')
    .values({
      id: reportId,
      company_id: companyId,
      change_no: 0,
      deleted: 0,
      created: now - 10 * 86400,
      modified: now,
      aircraft_id: aircraftId,
      flight_id: null,
      user_id: null,
      type: 'MEL',
      title: opts.title,
      description: null,
      ata_chapter: opts.ata,
      system: null,
      severity: 'LOW',
      aircraft_status: 'FLYABLE',
      dispatch_condition: 'MEL',
      status: 'DEFERRED',
      hours: null,
      cycles: null,
      deferred_until: now - 86400,
      deferred_reference: null,
      closed: null,
      closed_by: null,
      maintenance_job_id: null,
    } as any)
    .execute();
  await s.ctx.db
    .insertInto('mel_items')
    .values({
      id: uuidv7(),
      company_id: companyId,
      aircraft_report_id: reportId,
      mel_reference: '32-1',
      category: opts.category,
      interval_type: 'CALENDAR_DAYS',
      interval_value: 3,
      starts: now - 4 * 86400,
      expires: now - 86400,
      baseline_flights: null,
      baseline_cycles: null,
      placard_fitted: 1,
      procedures: null,
      released_by: null,
      released: now - 10 * 86400,
      extended: 0,
      extended_by: null,
      extended_until: null,
      extension_reason: null,
      created: now - 10 * 86400,
      modified: now,
    } as any)
    .execute();
  return reportId;
}
