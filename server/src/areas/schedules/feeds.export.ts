import { randomBytes } from 'node:crypto';
import { uuidv7 } from '@ops/shared';
import { translator } from '@ops/shared/i18n/index';
import { mayPublishAircraftFeed } from '@ops/shared/rules/schedules/policy';
import type { Request, Response } from 'express';
import ical from 'ical-generator';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds, sha256 } from '../../lib/tokens.ts';

/** A feed covers 30 days back and 180 days ahead (calendar apps poll it). */
const FEED_PAST = 30 * 86_400;
const FEED_AHEAD = 180 * 86_400;

const feedPath = (token: string) => `/api/v1/schedules/ics/${token}.ics`;

export async function listFeeds(db: Kysely<DB>, actor: Actor) {
  const rows = await db
    .selectFrom('schedule_feeds')
    .select(['id', 'kind', 'subject_id', 'created', 'revoked_at'])
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', actor.userId)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return {
    feeds: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      subject_id: r.subject_id,
      created: Number(r.created),
      revoked: r.revoked_at !== null,
    })),
  };
}

/**
 * A new secret URL. `user`: the caller's own bookings (as pilot or
 * instructor). `aircraft`: one aircraft's bookings, for staff (schedules/policy.ts).
 * The token is shown once; only its hash is stored.
 */
export async function createFeed(
  ctx: AppContext,
  actor: Actor,
  body: { kind: 'user' | 'aircraft'; aircraft_id?: string },
  req: Request,
) {
  let subject = actor.userId;
  if (body.kind === 'aircraft') {
    if (!mayPublishAircraftFeed(actor)) throw forbidden('Only staff can publish an aircraft calendar');
    if (!body.aircraft_id) throw validationFailed({ aircraft_id: ['Required'] });
    const a = await ctx.db
      .selectFrom('aircraft')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', body.aircraft_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!a) throw notFound('Aircraft not found');
    subject = a.id;
  }
  const token = `cal_${randomBytes(24).toString('base64url')}`;
  const id = uuidv7();
  await ctx.db
    .insertInto('schedule_feeds')
    .values({
      id,
      company_id: actor.companyId,
      user_id: actor.userId,
      kind: body.kind,
      subject_id: subject,
      token_hash: sha256(token),
      created: nowSeconds(),
      revoked_at: null,
    })
    .execute();
  const path = feedPath(token);
  return { result: true, id, token, path, url: `${req.protocol}://${req.get('host')}${path}` };
}

export async function revokeFeed(ctx: AppContext, actor: Actor, id: string) {
  const r = await ctx.db
    .updateTable('schedule_feeds')
    .set({ revoked_at: nowSeconds() })
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', actor.userId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) {
    const exists = await ctx.db
      .selectFrom('schedule_feeds')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('user_id', '=', actor.userId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!exists) throw notFound('Feed not found');
  }
  return { result: true };
}

/** GET /schedules/ics/{token}.ics: unknown or revoked tokens, and feeds of removed accounts, are 404. */
export async function serveFeed(ctx: AppContext, token: string, res: Response): Promise<undefined> {
  const feed = await ctx.db
    .selectFrom('schedule_feeds as f')
    .innerJoin('users as u', (j) =>
      j.onRef('u.id', '=', 'f.user_id').onRef('u.company_id', '=', 'f.company_id').on('u.deleted', '=', 0),
    )
    .innerJoin('companies as c', 'c.id', 'f.company_id')
    .select(['f.company_id', 'f.kind', 'f.subject_id', 'c.name as company', 'c.timezone', 'u.language'])
    .where('f.token_hash', '=', sha256(token))
    .where('f.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!feed) throw notFound('Calendar not found');
  const c = feed.company_id;
  const now = nowSeconds();
  let q = ctx.db
    .selectFrom('schedules as s')
    .innerJoin('aircraft as a', (j) => j.onRef('a.id', '=', 's.aircraft_id').on('a.company_id', '=', c))
    .innerJoin('users as p', (j) => j.onRef('p.id', '=', 's.pilot_id').on('p.company_id', '=', c))
    .leftJoin('users as i', (j) => j.onRef('i.id', '=', 's.instructor_id').on('i.company_id', '=', c))
    .innerJoin('flight_types as t', (j) => j.onRef('t.id', '=', 's.flight_type_id').on('t.company_id', '=', c))
    .select([
      's.id',
      's.start_at',
      's.end_at',
      's.remarks',
      's.modified',
      's.departure_airport',
      'a.registration',
      'p.name as p_name',
      'p.surname as p_surname',
      'i.name as i_name',
      'i.surname as i_surname',
      't.name as t_name',
    ])
    .where('s.company_id', '=', c)
    .where('s.status', '=', 'BOOKED')
    .where('s.deleted', '=', 0)
    .where('s.start_at', '>=', now - FEED_PAST)
    .where('s.start_at', '<', now + FEED_AHEAD);
  if (feed.kind === 'aircraft') q = q.where('s.aircraft_id', '=', feed.subject_id);
  else
    q = q.where((eb) => eb.or([eb('s.pilot_id', '=', feed.subject_id), eb('s.instructor_id', '=', feed.subject_id)]));
  const rows = await q.orderBy('s.start_at').orderBy('s.id').limit(5000).execute();
  // The feed's words in the language of the user who made it (issue 33): the calendar app
  // fetches with the token only. Registrations, flight types, names and remarks are data.
  const t = translator(feed.language);
  const cal = ical({
    name: t('schedules.icsName', { company: feed.company }),
    prodId: { company: 'ops', product: 'schedules' },
    timezone: feed.timezone,
    ttl: 900,
  });
  for (const r of rows) {
    cal.createEvent({
      id: `${r.id}@schedules`,
      start: new Date(Number(r.start_at) * 1000),
      end: new Date(Number(r.end_at) * 1000),
      stamp: new Date(Number(r.modified) * 1000),
      summary: t('schedules.icsTitle', { registration: r.registration, type: r.t_name }),
      description: [
        t('schedules.icsPilot', { name: `${r.p_name} ${r.p_surname}`.trim() }),
        r.i_name ? t('schedules.icsInstructor', { name: `${r.i_name} ${r.i_surname}`.trim() }) : null,
        r.remarks ? t('schedules.icsRemarks', { remarks: r.remarks }) : null,
      ]
        .filter(Boolean)
        .join('\n'),
      location: r.departure_airport ?? undefined,
    });
  }
  res
    .status(200)
    .type('text/calendar; charset=utf-8')
    .set('Cache-Control', 'private, max-age=300')
    .send(cal.toString());
  return undefined;
}
