import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { emitWebhook } from '../webhooks/outbox.service.ts';
import { presentBooking } from './schedules.presenter.ts';

/**
 * `booking.created`, `booking.moved` (start, end or aircraft changed) and
 * `booking.canceled`, the booking presented as an entry of
 * `GET /schedules/index` presents it.
 */
export function emitBookingWebhook(
  uow: UnitOfWork,
  actor: Actor,
  id: string,
  type: 'booking.created' | 'booking.moved' | 'booking.canceled',
): Promise<void> {
  return emitWebhook(uow, actor.companyId, type, 'Schedule', id, async () => {
    const trx = uow.trx;
    const b = await trx
      .selectFrom('schedules')
      .select([
        'id',
        'aircraft_id',
        'pilot_id',
        'instructor_id',
        'flight_type_id',
        'base_id',
        'start_at',
        'end_at',
        'status',
        'flight_id',
        'remarks',
        'user_id',
        'departure_airport',
        'landing_airport',
      ])
      .where('company_id', '=', actor.companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!b) return null;
    const [aircraft, pilot, instructor, flightType] = await Promise.all([
      trx
        .selectFrom('aircraft')
        .select(['id', 'registration'])
        .where('company_id', '=', actor.companyId)
        .where('id', '=', b.aircraft_id)
        .executeTakeFirst(),
      trx
        .selectFrom('users')
        .select(['id', 'name', 'surname'])
        .where('company_id', '=', actor.companyId)
        .where('id', '=', b.pilot_id)
        .executeTakeFirst(),
      b.instructor_id
        ? trx
            .selectFrom('users')
            .select(['id', 'name', 'surname'])
            .where('company_id', '=', actor.companyId)
            .where('id', '=', b.instructor_id)
            .executeTakeFirst()
        : undefined,
      trx
        .selectFrom('flight_types')
        .select(['id', 'name', 'color'])
        .where('company_id', '=', actor.companyId)
        .where('id', '=', b.flight_type_id)
        .executeTakeFirst(),
    ]);
    return {
      Schedule: presentBooking(b),
      Aircraft: aircraft ?? { id: b.aircraft_id, registration: null },
      Pilot: pilot ?? { id: b.pilot_id, name: null, surname: null },
      Instructor: b.instructor_id ? (instructor ?? { id: b.instructor_id, name: null, surname: null }) : null,
      FlightType: flightType ?? { id: b.flight_type_id, name: null, color: null },
    };
  });
}
