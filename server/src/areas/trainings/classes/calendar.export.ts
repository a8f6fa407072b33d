import { translator } from '@ops/shared/i18n/index';
import { english } from '../../../http/messages.ts';
import { mayReadStudentWork } from '@ops/shared/rules/trainings/policy';
import { randomBytes } from 'node:crypto';
import type { AttendanceStatus } from '@ops/shared/rules/trainings/attendance';
import type { Request, Response } from 'express';
import ical from 'ical-generator';
import { DateTime } from 'luxon';
import type { AppContext } from '../../../context.ts';
import type { Actor } from '../../../http/actor.ts';
import { notFound, validationFailed } from '../../../http/errors.ts';
import { nowSeconds, sha256 } from '../../../lib/tokens.ts';
import './classes.tables.ts';
import { type Db, num } from '../trainings.repository.ts';

/**
 * Calendar of classes (Part B 4.7 item 19) and the per-user ICS feed. Who sees
 * which class: instructors and managers (<= 150) every class of the company;
 * others the classes they teach or are invited to.
 */

/** The longest range one calendar request may ask for. */
const MAX_RANGE = 400 * 86_400;
/** The feed covers 60 days back and a year ahead (calendar apps poll it). */
const FEED_PAST = 60 * 86_400;
const FEED_AHEAD = 366 * 86_400;

/** `start`/`end`: unix seconds, `YYYY-MM-DD` (midnight in `timeZone`) or an ISO date-time. */
export function calendarBound(v: string, zone: string): number | null {
  if (/^\d+$/.test(v)) return Number(v);
  const d = DateTime.fromISO(v, { zone, setZone: false });
  return d.isValid ? Math.floor(d.toSeconds()) : null;
}

interface Who {
  companyId: string;
  userId: string;
  role: number;
}

async function classesFor(db: Db, who: Who, from: number, to: number, trainingId?: string) {
  let q = db
    .selectFrom('training_sessions as c')
    .innerJoin('trainings as t', (j) => j.onRef('t.id', '=', 'c.training_id').on('t.deleted', '=', 0))
    .leftJoin('training_subjects as s', 's.id', 'c.subject_id')
    .leftJoin('training_lessons as l', 'l.id', 'c.lesson_id')
    .leftJoin('training_exams as x', 'x.id', 'c.exam_id')
    .leftJoin('training_locations as loc', 'loc.id', 'c.location_id')
    .leftJoin('training_session_students as me', (j) =>
      j.onRef('me.session_id', '=', 'c.id').on('me.user_id', '=', who.userId).on('me.deleted', '=', 0),
    )
    .select([
      'c.id',
      'c.datetime',
      'c.minutes',
      'c.teacher_id',
      'c.signed_at',
      'c.remarks',
      'c.modified',
      't.id as training_id',
      't.name as training_name',
      't.color',
      's.name as subject_name',
      'l.name as lesson_name',
      'x.name as exam_name',
      'loc.name as location_name',
      'loc.address as location_address',
      'me.id as my_row',
      'me.attendance_status',
    ])
    .where('c.company_id', '=', who.companyId)
    .where('c.deleted', '=', 0)
    .where('c.datetime', '>=', from)
    .where('c.datetime', '<', to);
  if (trainingId) q = q.where('c.training_id', '=', trainingId);
  if (!mayReadStudentWork(who))
    q = q.where((eb) => eb.or([eb('c.teacher_id', '=', who.userId), eb('me.id', 'is not', null)]));
  return q.orderBy('c.datetime').orderBy('c.id').limit(5000).execute();
}

type ClassRow = Awaited<ReturnType<typeof classesFor>>[number];
const titleOf = (r: ClassRow) =>
  [r.subject_name, r.lesson_name ?? r.exam_name].filter(Boolean).join(' · ') || r.training_name;

/** GET /trainings/trainings/calendar.json. */
export async function calendar(
  ctx: AppContext,
  actor: Actor,
  query: { start: string; end: string; timeZone: string; training?: string },
) {
  const from = calendarBound(query.start, query.timeZone);
  const to = calendarBound(query.end, query.timeZone);
  const errors: Record<string, string[]> = {};
  if (from === null) errors.start = ['Expected unix seconds, YYYY-MM-DD or an ISO date-time'];
  if (to === null) errors.end = ['Expected unix seconds, YYYY-MM-DD or an ISO date-time'];
  if (from !== null && to !== null && to <= from) errors.end = ['end must be after start'];
  if (from !== null && to !== null && to - from > MAX_RANGE) errors.end = ['At most 400 days per request'];
  if (Object.keys(errors).length || from === null || to === null) throw validationFailed(errors);
  const rows = await classesFor(
    ctx.db,
    { companyId: actor.companyId, userId: actor.userId, role: actor.role },
    from,
    to,
    query.training,
  );
  const iso = (t: number) =>
    DateTime.fromSeconds(t, { zone: query.timeZone }).toISO({ suppressMilliseconds: true }) ?? '';
  return {
    timeZone: query.timeZone,
    events: rows.map((r) => ({
      id: r.id,
      title: titleOf(r),
      start: iso(num(r.datetime)),
      end: iso(num(r.datetime) + num(r.minutes) * 60),
      allDay: false as const,
      color: r.color,
      training_id: r.training_id,
      training_name: r.training_name,
      subject_name: r.subject_name,
      location_name: r.location_name,
      teacher_id: r.teacher_id,
      role: r.teacher_id === actor.userId ? ('teacher' as const) : r.my_row ? ('student' as const) : ('staff' as const),
      signed: r.signed_at !== null,
      attendance_status: (r.attendance_status ?? null) as AttendanceStatus | null,
    })),
  };
}

const feedPath = (token: string) => `/api/v1/trainings/calendar/ics/${token}.ics`;

/** GET /trainings/calendar/feed.json: whether the caller has a feed URL (the URL itself is shown only when made). */
export async function feedState(ctx: AppContext, actor: Actor) {
  const f = await ctx.db
    .selectFrom('training_calendar_feeds')
    .select('created')
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', actor.userId)
    .executeTakeFirst();
  return { active: !!f, created: f ? num(f.created) : null };
}

/** POST /trainings/calendar/feed.json: a new secret URL; an earlier one stops working. Only the hash is stored. */
export async function createFeed(ctx: AppContext, actor: Actor, req: Request) {
  const token = `trn_${randomBytes(24).toString('base64url')}`;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('training_calendar_feeds')
      .where('company_id', '=', actor.companyId)
      .where('user_id', '=', actor.userId)
      .execute();
    await trx
      .insertInto('training_calendar_feeds')
      .values({ token_hash: sha256(token), company_id: actor.companyId, user_id: actor.userId, created: nowSeconds() })
      .execute();
  });
  const path = feedPath(token);
  return { result: true as const, token, path, url: `${req.protocol}://${req.get('host')}${path}` };
}

/** POST /trainings/calendar/feed/revoke.json: the URL answers 404 from then on. */
export async function revokeFeed(ctx: AppContext, actor: Actor) {
  const r = await ctx.db
    .deleteFrom('training_calendar_feeds')
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', actor.userId)
    .executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) throw notFound(english('trainings.errNoCalendarFeed'));
  return { result: true as const };
}

/** GET /trainings/calendar/ics/{token}.ics: public behind the secret; unknown, revoked, or a removed account: 404. */
export async function serveFeed(ctx: AppContext, token: string, res: Response): Promise<undefined> {
  const feed = await ctx.db
    .selectFrom('training_calendar_feeds as f')
    .innerJoin('users as u', (j) =>
      j.onRef('u.id', '=', 'f.user_id').onRef('u.company_id', '=', 'f.company_id').on('u.deleted', '=', 0),
    )
    .innerJoin('companies as c', 'c.id', 'f.company_id')
    .select(['f.company_id', 'f.user_id', 'c.name as company', 'c.timezone', 'u.language'])
    .where('f.token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!feed) throw notFound(english('trainings.errCalendarNotFound'));
  const now = nowSeconds();
  const rows = await classesFor(
    ctx.db, // A personal feed: the classes the user teaches or attends, whatever their role.
    { companyId: feed.company_id, userId: feed.user_id, role: Number.MAX_SAFE_INTEGER },
    now - FEED_PAST,
    now + FEED_AHEAD,
  );
  // The feed's own words in its owner's language (issue 33); subject, lesson and exam names are data.
  const t = translator(feed.language);
  const cal = ical({
    name: t('trainings.feedName', { company: feed.company }),
    prodId: { company: 'ops', product: 'trainings' },
    timezone: feed.timezone,
    ttl: 900,
  });
  for (const r of rows) {
    cal.createEvent({
      id: `${r.id}@trainings`,
      start: new Date(num(r.datetime) * 1000),
      end: new Date((num(r.datetime) + num(r.minutes) * 60) * 1000),
      stamp: new Date(num(r.modified) * 1000),
      summary:
        r.exam_name && !r.lesson_name
          ? t('trainings.feedExam', { subject: r.subject_name, exam: r.exam_name })
          : titleOf(r),
      description: [r.training_name, r.remarks].filter(Boolean).join('\n'),
      location: [r.location_name, r.location_address].filter(Boolean).join(', ') || undefined,
    });
  }
  res
    .status(200)
    .type('text/calendar; charset=utf-8')
    .set('Cache-Control', 'private, max-age=300')
    .send(cal.toString());
  return undefined;
}
