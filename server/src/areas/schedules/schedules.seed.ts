import { DateTime } from 'luxon';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import type { SeedStep } from '../../seed/index.ts';
import type { SeedRefs } from '../../seed/refs.ts';
import { BookingRefused, decideBooking } from './schedules.service.ts';

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

/** CONTRACT 5: Skyline has `self_schedule` on (the other three flags stay off); Harbor off. */
async function setSelfSchedule(uow: UnitOfWork, companyId: string): Promise<void> {
  const row = await uow.trx
    .selectFrom('companies')
    .select('flags')
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  let flags: Record<string, unknown> = {};
  try {
    flags = JSON.parse(row.flags) as Record<string, unknown>;
  } catch {
    flags = {};
  }
  await uow.trx
    .updateTable('companies')
    .set({
      flags: JSON.stringify({ ...flags, self_schedule: true }),
      change_no: await uow.changeNo(companyId, 'companies'),
    })
    .where('id', '=', companyId)
    .execute();
}

/**
 * Fixtures: the scheduling flags. Demo: this week and next of Skyline's board
 * (dual lessons with Ivan, solos for Paula), booked by the dispatcher through
 * the same rules as the API, each with its SCHEDULED flight.
 */
export const schedulesSeedStep: SeedStep = {
  name: 'schedules',
  async fixtures(uow: UnitOfWork, refs: SeedRefs) {
    await setSelfSchedule(uow, refs.companies.skyline);
  },
  async demo(uow: UnitOfWork, refs: SeedRefs) {
    const sky = refs.users.skyline;
    const actor = await seedActor(uow, refs.companies.skyline, sky['dispatch@skyline.test']);
    const types = Object.fromEntries(
      (
        await uow.trx
          .selectFrom('flight_types')
          .select(['id', 'name'])
          .where('company_id', '=', refs.companies.skyline)
          .execute()
      ).map((t) => [t.name, t.id]),
    );
    const today = DateTime.fromSeconds(refs.now, { zone: actor.company.timezone }).startOf('day');
    const plan: Array<
      [
        day: number,
        hour: number,
        hours: number,
        aircraft: string,
        pilot: string,
        instructor: string | null,
        type: string,
      ]
    > = [];
    for (let d = 1; d <= 12; d++) {
      plan.push([d, 9, 2, 'EC-ABC', 'student@skyline.test', 'instructor@skyline.test', 'Dual training']);
      if (d % 2 === 0) plan.push([d, 12, 1.5, 'EC-ABC', 'pilot@skyline.test', null, 'Solo']);
      if (d % 3 === 0)
        plan.push([d, 15, 2, 'EC-DEF', 'pilot@skyline.test', 'instructor@skyline.test', 'Dual training']);
      if (d % 4 === 1) plan.push([d, 10, 1, 'SIM-01', 'dual@demo.test', 'headtraining@skyline.test', 'Dual training']);
    }
    for (const [d, h, len, reg, pilot, instructor, type] of plan) {
      const start = Math.floor(today.plus({ days: d, hours: h }).toSeconds());
      const pilotId = sky[pilot];
      if (!pilotId || !types[type] || !refs.aircraft[reg]) continue;
      try {
        await decideBooking(
          uow,
          actor,
          {
            aircraft_id: refs.aircraft[reg],
            pilot_id: pilotId,
            instructor_id: instructor ? sky[instructor] : null,
            flight_type_id: types[type],
            start,
            end: start + len * 3600,
            remarks: null,
          },
          { now: refs.now },
        );
      } catch (e) {
        if (!(e instanceof BookingRefused)) throw e; // a demo slot that does not fit is skipped
      }
    }
  },
};
