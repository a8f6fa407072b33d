/**
 * Issue 33, booking refusals the server decides: each carries `text` (message
 * id and values) beside its `message`. Over REST the message is in the
 * request's language (English without a preference, byte for byte what API
 * clients have always read); a rejected offline command keeps the English
 * reason with the text in `details`, and the app renders `text` in its
 * reader's language.
 */
import { uuidv7 } from '@ops/shared';
import { translator } from '@ops/shared/i18n/index';
import { type RuleText, renderText } from '@ops/shared/rules/readiness/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { push } from '../../setup/sync.ts';
import { createReport } from '../aircraft-reports/fleet-helpers.ts';
import { tokenCache, typeIds } from '../flights/helpers.ts';

const HOUR = 3600;
const DAY = 86400;
const GRID = 300;

const inLang = (text: RuleText, l: string) => renderText(translator(l), text, l);

describe.each(DIALECTS)('booking refusals in the reader’s language on %s', (dialect) => {
  let s: TestServer;
  let t: (email: string) => Promise<string>;
  let types: Record<string, string>;
  let pilot: string;
  let mechanic: string;
  let nextDay = 30;
  const weekday = () => {
    for (;;) {
      const d = Math.floor(Date.now() / 1000 / DAY) * DAY + nextDay++ * DAY;
      const wd = new Date(d * 1000).getUTCDay();
      if (wd >= 1 && wd <= 5) return d;
    }
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    t = tokenCache(() => s);
    types = await typeIds(s, await t('admin@skyline.test'));
    pilot = s.userId('pilot@skyline.test');
    mechanic = s.userId('mechanic@skyline.test');
  });
  afterAll(() => s?.close());

  const solo = (aircraft: string, pilotId: string, start: number) => ({
    aircraft_id: s.refs.aircraft[aircraft],
    pilot_id: pilotId,
    flight_type_id: types.Solo,
    start,
    end: start + HOUR,
  });
  const edit = async (email: string, Schedule: Record<string, unknown>, language?: string) =>
    s.api('POST', '/schedules/edit.json', {
      token: await t(email),
      body: { Schedule },
      ...(language ? { headers: { 'Accept-Language': language } } : {}),
    });
  const bookings = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('schedules')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const pushBook = async (email: string, args: Record<string, unknown>) => {
    const doc = {
      id: uuidv7(),
      name: 'schedule.book',
      args: { new_id: uuidv7(), ...args },
      client_time: Date.now(),
      user_id: null,
      status: 'pending',
      reason: null,
      details: null,
      result: null,
      decided_at: null,
    };
    return (await push(s, await t(email), 'commands', [{ assumedMasterState: null, newDocumentState: doc }])).body
      .conflicts[0];
  };

  it('HORIZON over REST: English without a preference, Spanish when asked; the same text, read in any language', async () => {
    const before = await bookings();
    const far = Math.ceil((Date.now() / 1000 + 366 * DAY) / GRID) * GRID;
    const plain = await edit('dispatch@skyline.test', solo('EC-DEF', pilot, far));
    const spanish = await edit('dispatch@skyline.test', solo('EC-DEF', pilot, far), 'es');
    expect(spanish.status).toBe(200);
    expect(spanish.body).toMatchObject({ result: false, code: 'HORIZON' });
    expect(plain.body.message).toMatch(/^Bookings can be made at most 365 days ahead \(until \d{4}-\d\d-\d\d\); /);
    expect(spanish.body.message).toBe(inLang(spanish.body.text, 'es'));
    expect(spanish.body.text).toEqual(plain.body.text);
    expect(spanish.body.text).toMatchObject({ id: 'schedules.sHorizon', values: { days: '365' } });
    expect(renderText(translator('en'), spanish.body.text)).toBe(plain.body.message);
    expect(inLang(spanish.body.text, 'es')).toMatch(/^Solo se puede reservar con 365 días de antelación como máximo/);
    expect(inLang(spanish.body.text, 'fr')).toMatch(/^On ne peut réserver que 365 jours à l’avance/);
    expect(await bookings()).toBe(before);
  });

  it('a rejected offline command keeps the English reason and carries the text for the device', async () => {
    const before = await bookings();
    const rejected = await pushBook('dispatch@skyline.test', solo('EC-DEF', mechanic, weekday() + 10 * HOUR));
    expect(rejected).toMatchObject({ status: 'rejected', details: { code: 'NOT_ALLOWED' } });
    expect(rejected.reason).toMatch(/ is not a pilot and cannot be booked as pilot\.$/);
    expect(renderText(translator('en'), rejected.details.text)).toBe(rejected.reason);
    expect(inLang(rejected.details.text, 'es')).toMatch(/ no es piloto y no se le puede reservar como piloto\.$/);
    expect(await bookings()).toBe(before);
  });

  it('AIRCRAFT_BLOCKED by a grounding report and CONFLICT_AIRCRAFT: REST and offline say the same, in any language', async () => {
    const start = weekday() + 10 * HOUR;
    const made = await edit('dispatch@skyline.test', solo('EC-DEF', pilot, start));
    expect(made.body.result, JSON.stringify(made.body)).toBe(true);
    const clash = await edit('dispatch@skyline.test', solo('EC-DEF', s.userId('student@skyline.test'), start));
    expect(clash.body).toMatchObject({
      code: 'CONFLICT_AIRCRAFT',
      message: 'The aircraft is already booked at that time (1 booking).',
    });
    expect(inLang(clash.body.text, 'es')).toBe('La aeronave ya está reservada a esa hora (1 reserva).');
    expect(inLang(clash.body.text, 'de')).toBe('Das Luftfahrzeug ist zu dieser Zeit bereits gebucht (1 Buchung).');

    const report = await createReport(s, await t('mechanic@skyline.test'), {
      AircraftReport: {
        aircraft_id: s.refs.aircraft['EC-ABC'],
        type: 'DEFECT',
        title: 'Nose gear shimmy',
        severity: 'CRITICAL',
        ata_chapter: '32',
        aircraft_status: 'GROUNDED',
      },
    });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    const before = await bookings();
    const rest = await edit('dispatch@skyline.test', solo('EC-ABC', pilot, start + 2 * HOUR), 'fr');
    expect(rest.body).toMatchObject({ result: false, code: 'AIRCRAFT_BLOCKED' });
    expect(rest.body.message).toBe(inLang(rest.body.text, 'fr'));
    expect(renderText(translator('en'), rest.body.text)).toBe(
      'EC-ABC cannot be booked: Open defect “Nose gear shimmy” (ATA 32, CRITICAL) grounds the aircraft.',
    );
    expect(inLang(rest.body.text, 'es')).toBe(
      'No se puede reservar EC-ABC: El defecto abierto «Nose gear shimmy» (ATA 32, CRÍTICA) inmoviliza la aeronave.',
    );
    const offline = await pushBook('pilot@skyline.test', solo('EC-ABC', pilot, start + 4 * HOUR));
    expect(offline).toMatchObject({ status: 'rejected', details: { code: 'AIRCRAFT_BLOCKED', text: rest.body.text } });
    expect(await bookings()).toBe(before);
  });

  it('another company’s booking stays 404 (not a refusal with text)', async () => {
    const start = weekday() + 9 * HOUR;
    const mine = await edit('dispatch@skyline.test', solo('EC-DEF', pilot, start));
    expect(mine.body.result).toBe(true);
    const harbor = await s.api('POST', '/schedules/edit.json', {
      token: await t('admin@harbor.test'),
      body: { Schedule: { id: mine.body.id, ...solo('EC-DEF', pilot, start) } },
      headers: { 'Accept-Language': 'es' },
    });
    expect(harbor.status).toBe(404);
    expect(harbor.body.text).toBeUndefined();
  });
});
