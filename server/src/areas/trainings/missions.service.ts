import { english } from '../../http/messages.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { verifyOwnPassword } from '../profile/password.service.ts';
import { num, stamp } from './trainings.repository.ts';

/**
 * Flight mission debriefing signatures (Part B 4.7 item 21). A mission row
 * (`training_mission_flights`, the spec's user_training_flight) is signed by
 * the student who flew it, with their password, while the training is active
 * and today is within its start and end dates.
 */

const today = (tz: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );

function missionQuery(ctx: AppContext, actor: Actor) {
  return ctx.db
    .selectFrom('training_mission_flights as mf')
    .innerJoin('training_enrollments as e', (j) => j.onRef('e.id', '=', 'mf.enrollment_id').on('e.deleted', '=', 0))
    .innerJoin('trainings as t', (j) => j.onRef('t.id', '=', 'e.training_id').on('t.deleted', '=', 0))
    .leftJoin('training_missions as m', 'm.id', 'mf.mission_id')
    .leftJoin('flights as f', 'f.id', 'mf.flight_id')
    .select([
      'mf.id',
      'mf.enrollment_id',
      'mf.mission_id',
      'mf.flight_id',
      'mf.user_id',
      'mf.completed',
      'mf.debrief_signed_at',
      'm.name as mission_name',
      'm.minutes as mission_minutes',
      't.id as training_id',
      't.name as training_name',
      't.active as training_active',
      't.start_date',
      't.end_date',
      't.require_debriefing_signature',
      'f.date as flight_date',
    ])
    .where('mf.company_id', '=', actor.companyId)
    .where('mf.deleted', '=', 0);
}

type MissionRow = Awaited<ReturnType<ReturnType<typeof missionQuery>['executeTakeFirstOrThrow']>>;

const present = (r: MissionRow) => ({
  id: r.id,
  enrollment_id: r.enrollment_id,
  training_id: r.training_id,
  training_name: r.training_name,
  mission_id: r.mission_id,
  mission_name: r.mission_name,
  minutes: num(r.mission_minutes),
  flight_id: r.flight_id,
  flight_date: r.flight_date ?? null,
  completed: !!num(r.completed),
  debrief_signed_at: r.debrief_signed_at === null ? null : num(r.debrief_signed_at),
});

/** GET /trainings/missions/unsigned.json: the caller's flown missions lacking a signature, on active trainings that require one. */
export async function unsignedMissions(ctx: AppContext, actor: Actor) {
  const rows = await missionQuery(ctx, actor)
    .where('mf.user_id', '=', actor.userId)
    .where('mf.debrief_signed_at', 'is', null)
    .where('t.active', '=', 1)
    .where('t.require_debriefing_signature', '=', 1)
    .orderBy('mf.created')
    .orderBy('mf.id')
    .execute();
  return { missions: rows.map(present) };
}

/** POST /trainings/missions/sign.json: `result: false` when already signed. */
export async function signMission(
  ctx: AppContext,
  actor: Actor,
  input: { user_training_flight_id: string; pass: string },
  ip: string | null,
) {
  const r = await missionQuery(ctx, actor).where('mf.id', '=', input.user_training_flight_id).executeTakeFirst();
  if (!r) throw notFound(english('trainings.errMissionNotFound'));
  if (r.user_id !== actor.userId) throw forbidden(english('trainings.errSignDebriefing'));
  if (r.debrief_signed_at !== null)
    return { result: false, message: english('trainings.msgAlreadySigned'), Mission: present(r) };
  const day = today(actor.company.timezone || 'UTC');
  if (!num(r.training_active) || (r.start_date && day < r.start_date) || (r.end_date && day > r.end_date)) {
    throw badRequest(english('trainings.errTrainingNotActive'), { code: 'TRAINING_NOT_ACTIVE' });
  }
  if (!(await verifyOwnPassword(ctx, actor, input.pass, ip)))
    throw badRequest('Wrong password', { code: 'WRONG_PASSWORD', errors: { pass: ['Wrong password'] } });
  const now = nowSeconds();
  const updated = await ctx.tx(async (uow) => {
    const res = await uow.trx
      .updateTable('training_mission_flights')
      .set({ debrief_signed_at: now, ...(await stamp(uow, actor.companyId, 'training_mission_flights')) })
      .where('id', '=', r.id)
      .where('company_id', '=', actor.companyId)
      .where('debrief_signed_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  });
  const after = await missionQuery(ctx, actor).where('mf.id', '=', r.id).executeTakeFirstOrThrow();
  return {
    result: updated === 1,
    ...(updated === 1 ? {} : { message: english('trainings.msgAlreadySigned') }),
    Mission: present(after),
  };
}
