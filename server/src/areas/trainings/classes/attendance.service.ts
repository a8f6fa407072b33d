import { translator } from '@ops/shared/i18n/index';
import { english } from '../../../http/messages.ts';
import {
  type AttendanceStatus,
  attendanceEditRefusal,
  attendedFlag,
  signRefusal,
  unsignRefusal,
} from '@ops/shared/rules/trainings/attendance';
import type { AppContext } from '../../../context.ts';
import type { Actor } from '../../../http/actor.ts';
import { badRequest, forbidden, validationFailed } from '../../../http/errors.ts';
import { nowSeconds } from '../../../lib/tokens.ts';
import { notify } from '../../notifications/notifications.notify.ts';
import { verifyOwnPassword } from '../../profile/password.service.ts';
import { mayRunClass } from '@ops/shared/rules/trainings/policy';
import { mailDates, presentClass, requireClass } from './classes.service.ts';
import { chunks, stamp } from '../trainings.repository.ts';

/**
 * Attendance (Part B 4.7 item 15). Storing, signing and unsigning; the rules
 * are the shared ones (attendance.ts) so the offline app refuses the same edits.
 */

export interface StoreInput {
  classId: string;
  students: Array<{ user_id: string; attendance_status: AttendanceStatus | null }>;
}

/** POST /trainings/onsite/store_attendance.json: statuses of listed students; others unchanged. */
/** The two columns one attendance decision writes (the legacy `attended` flag follows the status). Store and sync use it. */
export const attendanceColumns = (status: AttendanceStatus | null) => ({
  attendance_status: status,
  attended: attendedFlag(status) ? 1 : 0,
});

export async function storeAttendance(ctx: AppContext, actor: Actor, input: StoreInput) {
  const c = await requireClass(ctx.db, actor.companyId, input.classId);
  const refusal = attendanceEditRefusal({ id: actor.userId, role: actor.role }, c);
  if (refusal) {
    if (c.signed_at != null && mayRunClass(actor, c)) throw badRequest(refusal, { code: 'CLASS_SIGNED' });
    throw forbidden(refusal);
  }
  const wanted = new Map(input.students.map((s) => [s.user_id, s.attendance_status]));
  const rows = await ctx.db
    .selectFrom('training_session_students')
    .select(['id', 'user_id'])
    .where('company_id', '=', actor.companyId)
    .where('session_id', '=', c.id)
    .where('deleted', '=', 0)
    .execute();
  const onClass = new Map(rows.map((r) => [r.user_id, r.id]));
  const strangers = [...wanted.keys()].filter((u) => !onClass.has(u));
  if (strangers.length)
    throw validationFailed({ students: [`Not students of this class: ${strangers.slice(0, 10).join(', ')}`] });
  await ctx.tx(async (uow) => {
    const st = await stamp(uow, actor.companyId, 'training_session_students');
    for (const [userId, status] of wanted) {
      await uow.trx
        .updateTable('training_session_students')
        .set({ ...attendanceColumns(status), ...st })
        .where('id', '=', onClass.get(userId) as string)
        .execute();
    }
  });
  return {
    result: true as const,
    Class: await presentClass(ctx.db, actor.companyId, await requireClass(ctx.db, actor.companyId, c.id), null),
  };
}

/**
 * POST /trainings/onsite/sign_class.json. The teacher signs with their own
 * password. In the signing transaction each marker is claimed with a
 * conditional update (`... IS NULL`), so a repeated signing after an unsign
 * (or two signings racing) finds nothing left to send: the missed-class mail
 * goes once to each absent student, the attendance-signed notification once to
 * each student with a decided status.
 */
export async function signClass(
  ctx: AppContext,
  actor: Actor,
  input: { classId: string; password: string },
  ip: string | null,
) {
  const c = await requireClass(ctx.db, actor.companyId, input.classId);
  const refusal = signRefusal({ id: actor.userId, role: actor.role }, c);
  if (refusal) {
    if (c.teacher_id !== actor.userId) throw forbidden(refusal);
    throw badRequest(refusal, { code: 'CLASS_SIGNED' });
  }
  if (!(await verifyOwnPassword(ctx, actor, input.password, ip)))
    throw badRequest('Wrong password', { code: 'WRONG_PASSWORD', errors: { password: ['Wrong password'] } });
  const now = nowSeconds();
  const { missed, signedOk } = await ctx.tx(async (uow) => {
    const st = await stamp(uow, actor.companyId, 'training_sessions');
    const signed = await uow.trx
      .updateTable('training_sessions')
      .set({ signed_at: now, signed_by: actor.userId, ...st })
      .where('id', '=', c.id)
      .where('company_id', '=', actor.companyId)
      .where('signed_at', 'is', null)
      .executeTakeFirst();
    if (Number(signed.numUpdatedRows) === 0) return { missed: [] as string[], signedOk: false };
    const sst = await stamp(uow, actor.companyId, 'training_session_students');
    const students = await uow.trx
      .selectFrom('training_session_students')
      .select(['id', 'user_id', 'attendance_status', 'missed_email_sent_at', 'attendance_notified_at'])
      .where('company_id', '=', actor.companyId)
      .where('session_id', '=', c.id)
      .where('deleted', '=', 0)
      .execute();
    const missedUsers: string[] = [];
    for (const s of students) {
      if (s.attendance_status === 'absent' && s.missed_email_sent_at === null) {
        const claimed = await uow.trx
          .updateTable('training_session_students')
          .set({ missed_email_sent_at: now, ...sst })
          .where('id', '=', s.id)
          .where('missed_email_sent_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 1) missedUsers.push(s.user_id);
      }
      if (s.attendance_status !== null && s.attendance_notified_at === null) {
        const claimed = await uow.trx
          .updateTable('training_session_students')
          .set({ attendance_notified_at: now, ...sst })
          .where('id', '=', s.id)
          .where('attendance_notified_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 1) {
          await notify(uow, {
            companyId: actor.companyId,
            userIds: [s.user_id],
            title: english('trainings.notifyAttendance', { status: s.attendance_status }),
            titleId: 'trainings.notifyAttendance',
            titleValues: { status: s.attendance_status },
            body: null,
            link: `/trainings/onsite/class/${c.id}`,
          });
        }
      }
    }
    return { missed: missedUsers, signedOk: true };
  });
  if (!signedOk) throw badRequest(english('trainings.refAlreadySigned'), { code: 'CLASS_SIGNED' });
  if (missed.length) await sendMissedMails(ctx, actor, c.id, missed);
  return {
    result: true as const,
    signed_at: now,
    missed_mails: missed.length,
    Class: await presentClass(ctx.db, actor.companyId, await requireClass(ctx.db, actor.companyId, c.id), null),
  };
}

async function sendMissedMails(ctx: AppContext, actor: Actor, classId: string, userIds: string[]) {
  const c = await requireClass(ctx.db, actor.companyId, classId);
  const view = await presentClass(ctx.db, actor.companyId, c, null);
  const when = await mailDates(ctx.db, actor.companyId);
  for (const part of chunks(userIds)) {
    const users = await ctx.db
      .selectFrom('users')
      .select(['email', 'name', 'language'])
      .where('company_id', '=', actor.companyId)
      .where('id', 'in', part)
      .execute();
    for (const u of users) {
      if (!u.email) continue;
      await ctx.mailer.send({
        to: u.email,
        template: 'class_missed',
        companyId: actor.companyId,
        data: {
          name: u.name,
          subject: view.Subject?.name ?? '',
          activity: view.Lesson?.name ?? view.Exam?.name ?? view.Subject?.name ?? '',
          training: view.Training?.name ?? '',
          // Dates in the recipient's language and the company's formats (issue 33), like the rest of the mail.
          when: when(view.datetime, u.language),
          deadline:
            view.justification_deadline === null
              ? translator(u.language)('trainings.mailNoDeadline')
              : when(view.justification_deadline, u.language),
          classId,
        },
      });
    }
  }
}

/** POST /trainings/onsite/unsign_class.json: the teacher or a manager reopens a signed class; sent markers stay. */
export async function unsignClass(ctx: AppContext, actor: Actor, classId: string) {
  const c = await requireClass(ctx.db, actor.companyId, classId);
  const refusal = unsignRefusal({ id: actor.userId, role: actor.role }, c);
  if (refusal) {
    if (!mayRunClass(actor, c)) throw forbidden(refusal);
    throw badRequest(refusal, { code: 'CLASS_NOT_SIGNED' });
  }
  await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('training_sessions')
      .set({ signed_at: null, signed_by: null, ...(await stamp(uow, actor.companyId, 'training_sessions')) })
      .where('id', '=', c.id)
      .where('company_id', '=', actor.companyId)
      .execute();
  });
  return {
    result: true as const,
    Class: await presentClass(ctx.db, actor.companyId, await requireClass(ctx.db, actor.companyId, c.id), null),
  };
}
