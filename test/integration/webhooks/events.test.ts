import { WEBHOOK_JOB } from '@ops/server/areas/webhooks/delivery.jobs';
import { MEL_EXPIRY_JOB, runMelExpiry } from '@ops/server/areas/webhooks/mel-expiry.jobs';
import { verifyWebhook } from '@ops/server/areas/webhooks/signature.service';
import { runJob } from '@ops/server/jobs/scheduler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { melBody } from '../aircraft-reports/fleet-helpers.ts';
import { tokenCache, typeIds } from '../flights/helpers.ts';
import { categoryId, reportBody } from '../safety-reports/safety-helpers.ts';
import { receiver } from './receiver.ts';

const NEW_EVENTS = [
  'mel.raised',
  'mel.extended',
  'mel.closed',
  'mel.expired',
  'aircraft.blocked',
  'aircraft.unblocked',
  'safety_report.submitted',
  'enrollment.completed',
  'booking.created',
  'booking.moved',
  'booking.canceled',
];
const HOUR = 3600;
const DAY = 86400;

/**
 * The events of issue 23 item 5 beyond flights and MEL decisions: each is
 * written in the transaction of its change, delivered signed to a real
 * receiver with the record as the API presents it, never to another company,
 * and not at all when the write is refused.
 */
describe.each(DIALECTS)('webhook events on %s', (dialect) => {
  let s: TestServer;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let other: Awaited<ReturnType<typeof receiver>>;
  const t = tokenCache(() => s);
  let secret: string;
  let types: Record<string, string>;

  const deliver = () => runJob(s.ctx, WEBHOOK_JOB);
  const outbox = async () =>
    (await s.ctx.db.selectFrom('webhook_events').select(['type', 'record_id']).orderBy('id').execute()).map(
      (e) => `${e.type} ${e.record_id}`,
    );
  /** Delivers and answers the accepted events, each checked for a valid signature. */
  const received = async () => {
    await deliver();
    for (const g of rx.got) {
      const ts = String(g.headers['x-webhook-timestamp']);
      expect(
        verifyWebhook(secret, String(g.headers['x-webhook-signature']), ts, g.body, Math.floor(Date.now() / 1000)),
      ).toBe(true);
      expect(JSON.parse(g.body).id).toBe(g.headers['x-webhook-id']);
    }
    return rx.events();
  };

  beforeAll(async () => {
    s = await startTestServer(dialect, { env: { JOBS: 'off' } });
    rx = await receiver();
    other = await receiver();
    types = await typeIds(s, await t('admin@skyline.test'));
    const r = await s.api('POST', '/webhooks/add.json', {
      token: await t('admin@skyline.test'),
      body: { url: `${rx.url}/hook`, events: NEW_EVENTS },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    secret = r.body.secret;
    const h = await s.api('POST', '/webhooks/add.json', {
      token: await t('admin@harbor.test'),
      body: { url: other.url, events: NEW_EVENTS },
    });
    expect(h.status).toBe(200);
  });
  afterAll(async () => {
    await rx?.close();
    await other?.close();
    await s?.close();
  });
  beforeEach(async () => {
    await deliver();
    rx.got.length = 0;
  });

  it('lists the new event types', async () => {
    const r = await s.api('GET', '/webhooks/events.json', { token: await t('admin@skyline.test') });
    expect(r.body.events).toEqual(expect.arrayContaining(NEW_EVENTS));
  });

  describe('safety_report.submitted', () => {
    it('a report filed open is submitted once; a draft only when it is submitted', async () => {
      const pilot = await t('pilot@skyline.test');
      const cat = await categoryId(s, 'Bird strike');
      const open = await s.api('POST', '/safety_reports/create.json', { token: pilot, body: reportBody(cat) });
      expect(open.status, JSON.stringify(open.body)).toBe(200);
      const draft = await s.api('POST', '/safety_reports/create.json', {
        token: pilot,
        body: reportBody(cat, { status: 'draft', name: 'Draft first' }),
      });
      expect(draft.body.idn).toBeNull();
      let events = await received();
      expect(events.map((e) => e.type)).toEqual(['safety_report.submitted']);
      expect(events[0]).toMatchObject({
        model: 'SafetyReport',
        company_id: s.refs.companies.skyline,
        data: {
          SafetyReport: { id: open.body.id, idn: open.body.idn, status: 'open' },
          SafetyReportCategory: { id: cat },
        },
      });
      expect(events[0].data.SafetyReport).not.toHaveProperty('author_id');
      rx.got.length = 0;
      const submit = await s.api('POST', `/safety_reports/edit/${draft.body.id}.json`, {
        token: pilot,
        body: { SafetyReport: { status: 'open' } },
      });
      expect(submit.status, JSON.stringify(submit.body)).toBe(200);
      // Editing a submitted report is not a submission.
      await s.api('POST', `/safety_reports/edit/${draft.body.id}.json`, {
        token: pilot,
        body: { SafetyReport: { location: 'LELL' } },
      });
      events = await received();
      expect(events.map((e) => [e.type, e.data.SafetyReport.id, e.data.SafetyReport.idn])).toEqual([
        ['safety_report.submitted', draft.body.id, submit.body.idn],
      ]);
    });

    it('a refused write records nothing', async () => {
      const before = await outbox();
      const pilot = await t('pilot@skyline.test');
      const bad = await s.api('POST', '/safety_reports/create.json', { token: pilot, body: reportBody('nope') });
      expect(bad.status).toBe(400);
      const harborDraft = await s.api('POST', '/safety_reports/create.json', {
        token: await t('pilot@harbor.test'),
        body: { SafetyReport: { name: 'x' } },
      });
      expect(harborDraft.status).toBeGreaterThanOrEqual(400);
      expect(await outbox()).toEqual(before);
      expect(await received()).toEqual([]);
    });
  });

  describe('enrollment.completed', () => {
    it('completing an enrollment emits it with the enrollment as the API presents it; other transitions do not', async () => {
      const admin = await t('admin@skyline.test');
      const student = s.userId('student@skyline.test');
      const training = (
        await s.api('POST', '/manager/trainings/trainings/create.json', {
          token: admin,
          body: { name: 'Hook course', type: 'ONSITE' },
        })
      ).body.id;
      const enrolled = await s.api('POST', '/manager/trainings/students/enroll.json', {
        token: admin,
        body: { training_id: training, students: [student] },
      });
      const id = enrolled.body.results[student].TrainingsUser.id;
      const status = (body: Record<string, unknown>, token = admin) =>
        s.api('POST', '/manager/trainings/students/status.json', { token, body: { id, ...body } });
      expect((await status({ status: 'STOPPED' })).status).toBe(400); // a reason is required: refused
      expect((await status({ status: 'COMPLETED' }, await t('admin@harbor.test'))).status).toBe(404);
      expect((await status({ status: 'COMPLETED' }, await t('pilot@skyline.test'))).status).toBe(403);
      expect(await received()).toEqual([]);
      const done = await status({ status: 'COMPLETED' });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect((await status({ status: 'COMPLETED' })).body.result).toBe(false); // already: no change, no event
      const events = await received();
      expect(events.map((e) => e.type)).toEqual(['enrollment.completed']);
      expect(events[0]).toMatchObject({ model: 'TrainingsUser', data: { TrainingsUser: done.body.TrainingsUser } });
    });
  });

  describe('booking.created, booking.moved, booking.canceled', () => {
    it('each change of a booking is one event with the booking as the index presents it', async () => {
      const dispatch = await t('dispatch@skyline.test');
      const abc = s.refs.aircraft['EC-ABC'];
      const start = Math.floor(Date.now() / 1000 / DAY) * DAY + 30 * DAY + 9 * HOUR;
      const fields = {
        aircraft_id: abc,
        pilot_id: s.userId('student@skyline.test'),
        instructor_id: s.userId('instructor@skyline.test'),
        flight_type_id: types['Dual training'],
        start,
        end: start + 2 * HOUR,
      };
      const created = await s.api('POST', '/schedules/edit.json', { token: dispatch, body: { Schedule: fields } });
      expect(created.body.result, JSON.stringify(created.body)).toBe(true);
      const id = created.body.id;
      // Refused: the slot is taken (result false), another company's booking is 404.
      const clash = await s.api('POST', '/schedules/edit.json', {
        token: dispatch,
        body: { Schedule: { ...fields, instructor_id: null, pilot_id: s.userId('pilot@skyline.test') } },
      });
      expect(clash.body.result).toBe(false);
      expect(
        (await s.api('POST', `/schedules/delete/${id}.json`, { token: await t('admin@harbor.test') })).status,
      ).toBe(404);
      // Remarks only: not a move.
      expect(
        (
          await s.api('POST', '/schedules/edit.json', {
            token: dispatch,
            body: { Schedule: { ...fields, id, remarks: 'Circuits' } },
          })
        ).body.result,
      ).toBe(true);
      const moved = await s.api('POST', '/schedules/edit.json', {
        token: dispatch,
        body: { Schedule: { ...fields, id, start: start + HOUR, end: start + 3 * HOUR } },
      });
      expect(moved.body.result).toBe(true);
      expect((await s.api('POST', `/schedules/delete/${id}.json`, { token: dispatch })).body.result).toBe(true);
      expect((await s.api('POST', `/schedules/delete/${id}.json`, { token: dispatch })).body.result).toBe(true); // already canceled: nothing
      const events = await received();
      expect(events.map((e) => [e.type, e.data.Schedule.id])).toEqual([
        ['booking.created', id],
        ['booking.moved', id],
        ['booking.canceled', id],
      ]);
      expect(events[0].data).toMatchObject({
        Schedule: { start, end: start + 2 * HOUR, status: 'BOOKED', flight_id: created.body.flight_id },
        Aircraft: { id: abc, registration: 'EC-ABC' },
        FlightType: { name: 'Dual training' },
      });
      expect(events[1].data.Schedule).toMatchObject({ start: start + HOUR, end: start + 3 * HOUR });
      expect(events[2].data.Schedule.status).toBe('CANCELED');
    });
  });

  describe('mel.expired, aircraft.blocked, aircraft.unblocked', () => {
    const def = () => s.refs.aircraft['EC-DEF'];
    const raise = async (title: string) => {
      const r = await s.api('POST', '/maintenance/aircraft_reports/create.json', {
        token: await t('mechanic@skyline.test'),
        body: melBody(def(), s.userId('mechanic@skyline.test'), { category: 'C' }, { title }),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as { id: string; MelItem: { id: string; expires: number } };
    };
    /** Time passes: the item's deadline is now behind us. */
    const age = (melItemId: string, column: 'expires' | 'extended_until') =>
      s.ctx.db
        .updateTable('mel_items')
        .set({ [column]: Math.floor(Date.now() / 1000) - 60 })
        .where('id', '=', melItemId)
        .execute();
    const expiry = () => runJob(s.ctx, MEL_EXPIRY_JOB);

    it('an item that expires is published once, and blocks its aircraft; closing it unblocks in the same transaction', async () => {
      const item = await raise('Nav light inop');
      await age(item.MelItem.id, 'expires');
      await expiry();
      await expiry(); // a second pass publishes nothing more
      let events = await received();
      const byType = (type: string) => events.find((e) => e.type === type);
      expect(events.map((e) => e.type).sort()).toEqual(['aircraft.blocked', 'mel.expired', 'mel.raised']);
      expect(byType('mel.expired')?.data).toMatchObject({
        AircraftReport: { id: item.id },
        MelItem: { status: 'EXPIRED' },
      });
      expect(byType('aircraft.blocked')).toMatchObject({
        model: 'Aircraft',
        data: { Aircraft: { id: def(), registration: 'EC-DEF' }, AircraftStatus: { blocked: true } },
      });
      expect(byType('aircraft.blocked')?.data.AircraftStatus.blockReason).toMatch(/Nav light inop/);
      rx.got.length = 0;
      // A refused close (a pilot) changes nothing.
      expect(
        (
          await s.api('POST', `/maintenance/aircraft_reports/edit/${item.id}.json`, {
            token: await t('pilot@skyline.test'),
            body: { AircraftReport: { status: 'CLOSED' } },
          })
        ).status,
      ).toBeGreaterThanOrEqual(400);
      expect(await received()).toEqual([]);
      const before = await outbox();
      const close = await s.api('POST', `/maintenance/aircraft_reports/edit/${item.id}.json`, {
        token: await t('mechanic@skyline.test'),
        body: { AircraftReport: { status: 'CLOSED' } },
      });
      expect(close.status).toBe(200);
      // Written by the close itself, before any job runs.
      expect((await outbox()).slice(before.length)).toEqual([`mel.closed ${item.id}`, `aircraft.unblocked ${def()}`]);
      events = await received();
      expect(events.map((e) => e.type).sort()).toEqual(['aircraft.unblocked', 'mel.closed']);
      expect(events.find((e) => e.type === 'aircraft.unblocked')?.data.AircraftStatus).toMatchObject({
        blocked: false,
        blockReason: null,
      });
      await expiry();
      expect(await received()).toHaveLength(2);
    });

    it('an extension unblocks; the extended deadline expiring is published once more', async () => {
      const item = await raise('Cabin placard missing');
      await age(item.MelItem.id, 'expires');
      await expiry();
      expect((await received()).map((e) => e.type).sort()).toEqual(['aircraft.blocked', 'mel.expired', 'mel.raised']);
      rx.got.length = 0;
      const now = Math.floor(Date.now() / 1000);
      const refused = await s.api('POST', `/maintenance/aircraft_reports/extend/${item.id}.json`, {
        token: await t('pilot@skyline.test'),
        body: { extended_until: now + DAY },
      });
      expect(refused.status).toBe(404);
      const ext = await s.api('POST', `/maintenance/aircraft_reports/extend/${item.id}.json`, {
        token: await t('admin@skyline.test'),
        body: { extended_until: now + DAY },
      });
      expect(ext.status, JSON.stringify(ext.body)).toBe(200);
      const twice = await s.api('POST', `/maintenance/aircraft_reports/extend/${item.id}.json`, {
        token: await t('admin@skyline.test'),
        body: { extended_until: now + 2 * DAY },
      });
      expect(twice.status).toBe(400);
      expect((await received()).map((e) => e.type).sort()).toEqual(['aircraft.unblocked', 'mel.extended']);
      rx.got.length = 0;
      await age(item.MelItem.id, 'extended_until');
      await expiry();
      await expiry();
      const events = await received();
      expect(events.map((e) => e.type).sort()).toEqual(['aircraft.blocked', 'mel.expired']);
      expect(events.find((e) => e.type === 'mel.expired')?.data.MelItem).toMatchObject({
        extended: true,
        status: 'EXPIRED',
      });
      rx.got.length = 0;
      // Deleted rather than closed: the job sees the aircraft airworthy again.
      expect(
        (
          await s.api('GET', `/maintenance/aircraft_reports/delete/${item.id}.json`, {
            token: await t('mechanic@skyline.test'),
          })
        ).status,
      ).toBe(200);
      await expiry();
      expect((await received()).map((e) => e.type)).toEqual(['aircraft.unblocked']);
    });
  });

  it('two expiry passes at once (two processes, lease aside) publish each change once', async () => {
    const r = await s.api('POST', '/maintenance/aircraft_reports/create.json', {
      token: await t('mechanic@skyline.test'),
      body: melBody(
        s.refs.aircraft['EC-ABC'],
        s.userId('mechanic@skyline.test'),
        { category: 'C' },
        { title: 'Strobe inop' },
      ),
    });
    await s.ctx.db
      .updateTable('mel_items')
      .set({ expires: Math.floor(Date.now() / 1000) - 60 })
      .where('id', '=', r.body.MelItem.id)
      .execute();
    const passes = await Promise.all([runMelExpiry(s.ctx), runMelExpiry(s.ctx), runMelExpiry(s.ctx)]);
    expect(passes.reduce((n, p) => n + p.expired, 0)).toBe(1);
    expect(passes.reduce((n, p) => n + p.blocked, 0)).toBe(1);
    expect((await received()).map((e) => e.type).sort()).toEqual(['aircraft.blocked', 'mel.expired', 'mel.raised']);
    rx.got.length = 0;
    await s.api('POST', `/maintenance/aircraft_reports/edit/${r.body.id}.json`, {
      token: await t('mechanic@skyline.test'),
      body: { AircraftReport: { status: 'CLOSED' } },
    });
    expect((await received()).map((e) => e.type).sort()).toEqual(['aircraft.unblocked', 'mel.closed']);
  });

  it('another company’s endpoint received none of these events', async () => {
    await deliver();
    expect(other.got).toEqual([]);
    const theirs = await s.ctx.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('company_id', '=', s.refs.companies.harbor)
      .execute();
    expect(theirs).toEqual([]);
  });

  it('measured: every event delivered exactly once to a receiver that fails half the time', async () => {
    const pilot = await t('pilot@skyline.test');
    const cat = await categoryId(s, 'Bird strike');
    const N = 40;
    for (let i = 0; i < N; i++)
      expect(
        (
          await s.api('POST', '/safety_reports/create.json', {
            token: pilot,
            body: reportBody(cat, { name: `Half ${i}` }),
          })
        ).status,
      ).toBe(200);
    rx.failRate(0.5, 7);
    const start = { ...rx.stats };
    let passes = 0;
    for (; passes < 50; passes++) {
      await deliver();
      const pending = await s.ctx.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .execute();
      if (!pending.length) break;
      // Back-off elapsed.
      await s.ctx.db
        .updateTable('webhook_deliveries')
        .set({ next_attempt: 0 })
        .where('status', '=', 'pending')
        .execute();
    }
    rx.failRate(0);
    const events = rx.events().filter((e) => e.type === 'safety_report.submitted');
    const ids = events.map((e) => e.id);
    const requests = rx.stats.requests - start.requests;
    const refused = rx.stats.refused - start.refused;
    const rows = await s.ctx.db
      .selectFrom('webhook_deliveries')
      .select(['attempts', 'status'])
      .where(
        'record_id',
        'in',
        (await s.ctx.db.selectFrom('safety_reports').select('id').where('name', 'like', 'Half %').execute()).map(
          (r) => r.id,
        ),
      )
      .execute();
    console.log(
      `[webhooks ${dialect}] receiver failing half the time: ${N} events, ${requests} HTTP attempts, ${refused} answered 500, ${events.length} accepted (${new Set(ids).size} distinct), ` +
        `${passes + 1} delivery passes, max ${Math.max(...rows.map((r) => Number(r.attempts)))} attempts for one event, statuses ${JSON.stringify(Object.fromEntries(['delivered', 'pending', 'failed'].map((st) => [st, rows.filter((r) => r.status === st).length])))}`,
    );
    expect(events).toHaveLength(N);
    expect(new Set(ids).size).toBe(N);
    expect(requests).toBe(N + refused);
    expect(refused).toBeGreaterThan(N / 4);
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
  });
});
