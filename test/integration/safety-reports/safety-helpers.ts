import type { TestServer } from '../../setup/server.ts';
import { insertFlight } from '../aircraft-reports/fleet-helpers.ts';

export { addUser, auditorToken, countQueries, setPlan, tokens } from '../aircraft-reports/fleet-helpers.ts';

/** Category id of a fixture category by name (Skyline). */
export async function categoryId(s: TestServer, name: string): Promise<string> {
  const r = await (s.ctx.db as any)
    .selectFrom('safety_report_categories')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return r.id;
}

/** A flight of Skyline crewed by the given users. */
export async function crewedFlight(
  s: TestServer,
  crew: { pic?: string; sic?: string; supervisor?: string },
): Promise<string> {
  const id = await insertFlight(s, {
    aircraftId: s.refs.aircraft['EC-ABC'],
    onblocks: Math.floor(Date.now() / 1000) - 86400,
  });
  await (s.ctx.db as any)
    .updateTable('flights')
    .set({
      pic_id: crew.pic ?? null,
      sic_id: crew.sic ?? null,
      supervisor_id: crew.supervisor ?? null,
      departure_airport: 'LECU',
      landing_airport: 'LELL',
    })
    .where('id', '=', id)
    .execute();
  return id;
}

export function reportBody(categoryId: string, over: Record<string, unknown> = {}) {
  return {
    SafetyReport: {
      name: 'Bird strike on short final',
      datetime: '2026-03-14T10:30:00Z',
      location: 'LECU',
      events: 'A flock of birds crossed the approach path.',
      flight_phase: 'APR',
      safety_report_category_id: categoryId,
      ...over,
    },
  };
}

export const createSR = (s: TestServer, token: string, body: unknown, flightId?: string) =>
  s.api('POST', flightId ? `/safety_reports/create/${flightId}.json` : '/safety_reports/create.json', { token, body });

export const countRows = async (s: TestServer, table: string): Promise<number> =>
  Number(
    (
      await (s.ctx.db as any)
        .selectFrom(table)
        .select((eb: any) => eb.fn.countAll().as('c'))
        .executeTakeFirstOrThrow()
    ).c,
  );

/** Notifications that link to a report. */
export async function notified(
  s: TestServer,
  reportId: string,
): Promise<{ user_id: string; title: string; body: string }[]> {
  return (s.ctx.db as any)
    .selectFrom('notifications')
    .select(['user_id', 'title', 'body'])
    .where('link', '=', `/safety_reports/view/${reportId}.json`)
    .execute();
}
