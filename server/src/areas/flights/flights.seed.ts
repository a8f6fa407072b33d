import { DateTime } from 'luxon';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import type { SeedStep } from '../../seed/index.ts';
import type { SeedRefs } from '../../seed/refs.ts';
import { saveFlight } from './flights.service.ts';
import { cancelFlight, confirmFlight } from './transitions.service.ts';

/** The dispatcher of a seeded company, as the services expect a caller. */
async function seedActor(uow: UnitOfWork, companyId: string, userId: string): Promise<Actor> {
  const c = await uow.trx.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow();
  const u = await uow.trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  return {
    userId,
    identityId: u.identity_id,
    companyId,
    role: u.user_group_id,
    email: u.email,
    name: u.name,
    surname: u.surname,
    supervisorId: u.supervisor_id,
    plan: c.plan as Actor['plan'],
    company: {
      name: c.name,
      timezone: c.timezone,
      flightTimezone: c.flight_timezone,
      billingEnabled: !!c.billing_enabled,
    },
    credential: { kind: 'session', id: 'seed' },
  };
}

async function typeIdsOf(uow: UnitOfWork, companyId: string): Promise<Record<string, string>> {
  const rows = await uow.trx
    .selectFrom('flight_types')
    .select(['id', 'name'])
    .where('company_id', '=', companyId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.name, r.id]));
}

const ROUTES = [
  ['LECU', 'LECU'],
  ['LECU', 'LEVD'],
  ['LECU', 'LELL'],
  ['LELL', 'LECU'],
] as const;

/**
 * SEED=demo: two months of logbook for Skyline (dual lessons, solos, a
 * multi-crew leg; most confirmed, a few still open or scheduled, one canceled)
 * and a handful for Harbor, written through the same services as the API, so
 * the aircraft books, counters and history agree with the flights.
 */
export const flightsSeedStep: SeedStep = {
  name: 'flights',
  async demo(uow: UnitOfWork, refs: SeedRefs) {
    const sky = refs.users.skyline;
    const actor = await seedActor(uow, refs.companies.skyline, sky['dispatch@skyline.test']);
    const types = await typeIdsOf(uow, refs.companies.skyline);
    const today = DateTime.utc().startOf('day');
    for (let i = 0; i < 40; i++) {
      const date = today.minus({ days: 60 - i * 1.5 }).toISODate() ?? '';
      const kind = i % 5;
      const [dep, arr] = ROUTES[i % ROUTES.length];
      const base = { date, departure_airport: dep, landing_airport: arr, rules: 'VFR', landings: dep === arr ? 3 : 1 };
      const hour = 8 + (i % 8);
      const times = {
        offblocks_time: `${String(hour).padStart(2, '0')}:00`,
        takeoff_time: `${String(hour).padStart(2, '0')}:12`,
        landing_time: `${String(hour + 1).padStart(2, '0')}:20`,
        onblocks_time: `${String(hour + 1).padStart(2, '0')}:30`,
      };
      const crew =
        kind === 0 || kind === 1
          ? {
              aircraft_id: refs.aircraft['EC-ABC'],
              flight_type_id: types['Dual training'],
              pic_id: sky['instructor@skyline.test'],
              sic_id: sky['student@skyline.test'],
            }
          : kind === 2
            ? { aircraft_id: refs.aircraft['EC-DEF'], flight_type_id: types.Solo, pic_id: sky['pilot@skyline.test'] }
            : kind === 3
              ? {
                  aircraft_id: refs.aircraft['EC-ABC'],
                  flight_type_id: types['Supervised solo'],
                  pic_id: sky['student@skyline.test'],
                  supervisor_id: sky['instructor@skyline.test'],
                }
              : {
                  aircraft_id: refs.aircraft['EC-JET'],
                  flight_type_id: types['Multi-crew'],
                  pic_id: sky['instructor@skyline.test'],
                  sic_id: sky['pilot@skyline.test'],
                  departure_airport: 'LELL',
                  landing_airport: 'LECU',
                  landings: 1,
                };
      const { id } = await saveFlight(uow, actor, { ...base, ...times, ...crew, callsign: `SKY${100 + i}` });
      if (i < 34) await confirmFlight(uow, actor, id);
      else if (i === 34) await cancelFlight(uow, actor, { id, reason: 'Weather below minima' });
    }
    for (let d = 1; d <= 3; d++) {
      await saveFlight(uow, actor, {
        date: today.plus({ days: d }).toISODate() ?? '',
        status: 'SCHEDULED',
        aircraft_id: refs.aircraft['EC-ABC'],
        flight_type_id: types['Dual training'],
        pic_id: sky['instructor@skyline.test'],
        sic_id: sky['student@skyline.test'],
        departure_airport: 'LECU',
        landing_airport: 'LECU',
        offblocks_time: '09:00',
        onblocks_time: '10:30',
      });
    }
    const harbor = await seedActor(uow, refs.companies.harbor, refs.users.harbor['admin@harbor.test']);
    const harborTypes = await typeIdsOf(uow, refs.companies.harbor);
    for (let i = 0; i < 6; i++) {
      const { id } = await saveFlight(uow, harbor, {
        date: today.minus({ days: 20 - i * 3 }).toISODate() ?? '',
        aircraft_id: refs.aircraft.N123HA,
        flight_type_id: harborTypes['Local flight'] ?? null,
        pic_id: refs.users.harbor[i % 2 ? 'pilot@harbor.test' : 'dual@demo.test'],
        departure_airport: 'KFRG',
        landing_airport: 'KFRG',
        offblocks_time: '14:00',
        takeoff_time: '14:10',
        landing_time: '15:05',
        onblocks_time: '15:15',
        landings: 2,
      });
      await confirmFlight(uow, harbor, id);
    }
  },
};
