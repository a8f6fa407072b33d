import { uuidv7 } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, forbidden, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { mayAssessFlight, mayViewFlight } from '@ops/shared/rules/flights/policy';
import { flightActor, loadFlightRow } from './flights.service.ts';
import { FRAT_FACTORS, FRAT_LEVELS, scoreFrat } from '@ops/shared/rules/flights/frat';

type FratRow = DB['flight_risk_assessments'];

const present = (r: FratRow) => ({
  id: r.id,
  flight_id: r.flight_id,
  user_id: r.user_id,
  answers: JSON.parse(r.answers) as Record<string, string>,
  score: r.score,
  level: r.level,
  mitigation: r.mitigation,
  completed: true,
  created: Number(r.created),
  modified: Number(r.modified),
});

async function aircraftOwner(db: Kysely<DB>, companyId: string, aircraftId: string | null) {
  if (!aircraftId) return null;
  const a = await db
    .selectFrom('aircraft')
    .select('user_id')
    .where('company_id', '=', companyId)
    .where('id', '=', aircraftId)
    .executeTakeFirst();
  return a?.user_id ?? null;
}

/** GET /flights/frat/{flightId}.json: the flight's assessment (or null) and the questionnaire. */
export async function getFrat(db: Kysely<DB>, actor: Actor, flightId: string) {
  const f = await loadFlightRow(db, actor.companyId, flightId);
  if (!f) throw notFound('Flight not found');
  const who = await flightActor(db, actor);
  if (!mayViewFlight(who, f, await aircraftOwner(db, actor.companyId, f.aircraft_id)))
    throw forbidden('You can only view flights you are involved in');
  const row = await db
    .selectFrom('flight_risk_assessments')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('flight_id', '=', flightId)
    .executeTakeFirst();
  return { frat: row ? present(row) : null, factors: FRAT_FACTORS, levels: FRAT_LEVELS };
}

/**
 * POST /flights/frat/{flightId}.json: the crew (or staff) fills or replaces the
 * assessment of a flight not yet flown. Every factor must be answered; a HIGH
 * score needs a mitigation. One assessment per flight.
 */
export async function saveFrat(
  uow: UnitOfWork,
  actor: Actor,
  flightId: string,
  input: { answers: Record<string, string>; mitigation?: string },
) {
  const trx = uow.trx;
  const f = await loadFlightRow(trx, actor.companyId, flightId);
  if (!f) throw notFound('Flight not found');
  const who = await flightActor(trx, actor);
  if (!mayAssessFlight(who, f)) throw forbidden('Only the crew or staff can assess this flight');
  if (f.status !== 'DRAFT' && f.status !== 'SCHEDULED')
    throw badRequest('Only flights not yet dispatched can be assessed');
  const mitigation = input.mitigation?.trim() || null;
  const scored = scoreFrat(input.answers, mitigation);
  if (!scored.ok) throw validationFailed(scored.errors);
  const now = nowSeconds();
  const values = {
    user_id: actor.userId,
    answers: JSON.stringify(input.answers),
    score: scored.score,
    level: scored.level,
    mitigation,
    modified: now,
  };
  const existing = await trx
    .selectFrom('flight_risk_assessments')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('flight_id', '=', flightId)
    .executeTakeFirst();
  if (existing) await trx.updateTable('flight_risk_assessments').set(values).where('id', '=', existing.id).execute();
  else
    await trx
      .insertInto('flight_risk_assessments')
      .values({ ...values, id: uuidv7(), company_id: actor.companyId, flight_id: flightId, created: now })
      .execute();
  const row = await trx
    .selectFrom('flight_risk_assessments')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('flight_id', '=', flightId)
    .executeTakeFirstOrThrow();
  return present(row);
}
