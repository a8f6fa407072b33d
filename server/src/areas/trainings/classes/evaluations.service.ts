import { english } from '../../../http/messages.ts';
import { mayRunClass, maySeeEvaluation } from '@ops/shared/rules/trainings/policy';
import { uuidv7 } from '@ops/shared';
import type { AppContext } from '../../../context.ts';
import type { Actor } from '../../../http/actor.ts';
import { forbidden, notFound } from '../../../http/errors.ts';
import { classStudent, requireClass } from './classes.service.ts';
import { stamp } from '../trainings.repository.ts';
import './classes.tables.ts';

/**
 * Student evaluation of a class (Part B 4.7 item 16): remarks, measures and
 * objectives. Written by the class teacher or a training manager; read by
 * them, instructors (<= 150) and the student evaluated.
 */

async function evaluationTarget(ctx: AppContext, actor: Actor, classId: string, userId: string) {
  const c = await requireClass(ctx.db, actor.companyId, classId);
  const row = await classStudent(ctx.db, actor.companyId, c.id, userId);
  if (!row) throw notFound('Student not in this class');
  return c;
}

export async function getEvaluation(ctx: AppContext, actor: Actor, classId: string, userId: string) {
  const c = await evaluationTarget(ctx, actor, classId, userId);
  if (!maySeeEvaluation(actor, c, userId)) throw forbidden(english('trainings.errNotYourEvaluation'));
  const e = await ctx.db
    .selectFrom('training_evaluations')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('session_id', '=', c.id)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return {
    Evaluation: e
      ? {
          id: e.id,
          class_id: e.session_id,
          student_id: e.user_id,
          remarks: e.remarks,
          measures: e.measures,
          objectives: e.objectives,
          evaluated_by: e.evaluated_by,
          modified: Number(e.modified),
        }
      : {
          id: null,
          class_id: c.id,
          student_id: userId,
          remarks: null,
          measures: null,
          objectives: null,
          evaluated_by: null,
          modified: null,
        },
  };
}

export interface EvaluationInput {
  class_id: string;
  student_id: string;
  remarks?: string | null;
  measures?: string | null;
  objectives?: string | null;
}

export async function saveEvaluation(ctx: AppContext, actor: Actor, input: EvaluationInput) {
  const c = await evaluationTarget(ctx, actor, input.class_id, input.student_id);
  if (!mayRunClass(actor, c)) throw forbidden(english('trainings.errEvaluate'));
  await ctx.tx(async (uow) => {
    const st = await stamp(uow, actor.companyId, 'training_evaluations');
    const e = await uow.trx
      .selectFrom('training_evaluations')
      .selectAll()
      .where('session_id', '=', c.id)
      .where('user_id', '=', input.student_id)
      .executeTakeFirst();
    const keep = (v: string | null | undefined, old: string | null | undefined) =>
      v !== undefined ? v : (old ?? null);
    const fields = {
      remarks: keep(input.remarks, e?.remarks),
      measures: keep(input.measures, e?.measures),
      objectives: keep(input.objectives, e?.objectives),
      evaluated_by: actor.userId,
    };
    if (e)
      await uow.trx
        .updateTable('training_evaluations')
        .set({ ...fields, deleted: 0, ...st })
        .where('id', '=', e.id)
        .execute();
    else
      await uow.trx
        .insertInto('training_evaluations')
        .values({
          id: uuidv7(),
          company_id: actor.companyId,
          deleted: 0,
          created: st.modified,
          ...st,
          session_id: c.id,
          user_id: input.student_id,
          ...fields,
        })
        .execute();
  });
  return { result: true as const, ...(await getEvaluation(ctx, actor, c.id, input.student_id)) };
}
