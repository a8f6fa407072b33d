/**
 * Issue 33 item 3, the REST API's message language: `Accept-Language` when it
 * names a supported language (q weights), else the caller's own `language` (an
 * API key speaks as its user), else English. Only `message` changes; `code`,
 * `text`, field keys and statuses stay, and `Content-Language` names the
 * language the message is in.
 */
import { translator } from '@ops/shared/i18n/index';
import { renderText } from '@ops/shared/rules/readiness/text';
import { DEFAULT_READINESS_SETTINGS } from '@ops/shared/rules/readiness/settings';
import { inLanguage } from '@ops/server/http/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { createReport } from '../aircraft-reports/fleet-helpers.ts';
import { tokenCache, typeIds } from '../flights/helpers.ts';

const HOUR = 3600;
const DAY = 86400;
const GRID = 300;

// English runs without a store (no promise hooks, issue 34 item 5); inside another language it must still set English.
it('zod words its issues in the language run around it, English inside another language included', () => {
  const issue = () => z.string().safeParse(1).error?.issues[0]?.message;
  const english = issue();
  expect(english).toMatch(/expected string/i);
  expect(inLanguage('en', issue)).toBe(english);
  const spanish = inLanguage('es', issue);
  expect(spanish).not.toBe(english);
  expect(inLanguage('es', () => inLanguage('en', issue))).toBe(english);
});

describe.each(DIALECTS)('REST messages in the request’s language on %s', (dialect) => {
  let s: TestServer;
  let t: (email: string) => Promise<string>;
  let types: Record<string, string>;
  let pilot: string;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    t = tokenCache(() => s);
    types = await typeIds(s, await t('admin@skyline.test'));
    pilot = s.userId('pilot@skyline.test');
  });
  afterAll(() => s?.close());

  /** Runs `fn` with a user's stored language set, then puts the old one back. */
  const withLanguage = async (email: string, language: string, fn: () => Promise<void>) => {
    const id = s.userId(email);
    const own = await s.ctx.db.selectFrom('users').select('language').where('id', '=', id).executeTakeFirstOrThrow();
    await s.ctx.db.updateTable('users').set({ language }).where('id', '=', id).execute();
    try {
      await fn();
    } finally {
      await s.ctx.db.updateTable('users').set({ language: own.language }).where('id', '=', id).execute();
    }
  };
  const far = () => Math.ceil((Date.now() / 1000 + 366 * DAY) / GRID) * GRID;
  const book = async (email: string, Schedule: Record<string, unknown>, language?: string) =>
    s.api('POST', '/schedules/edit.json', {
      token: await t(email),
      body: { Schedule },
      ...(language ? { headers: { 'Accept-Language': language } } : {}),
    });
  const tooFar = () => ({
    aircraft_id: s.refs.aircraft['EC-DEF'],
    pilot_id: pilot,
    flight_type_id: types.Solo,
    start: far(),
    end: far() + HOUR,
  });
  const bookingCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('schedules')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('the same refusal in English, in Spanish by Accept-Language and in French for a user whose language is fr', async () => {
    const before = await bookingCount();
    const english = await book('dispatch@skyline.test', tooFar());
    expect(english.status).toBe(200);
    expect(english.body).toMatchObject({ result: false, code: 'HORIZON' });
    expect(english.body.message).toMatch(/^Bookings can be made at most 365 days ahead \(until \d{4}-\d\d-\d\d\); /);
    expect(english.headers.get('content-language')).toBe('en');
    expect(renderText(translator('en'), english.body.text)).toBe(english.body.message);

    const spanish = await book('dispatch@skyline.test', tooFar(), 'es');
    expect(spanish.headers.get('content-language')).toBe('es');
    expect(spanish.body.message).toMatch(/^Solo se puede reservar con 365 días de antelación como máximo/);
    expect(spanish.body.message).toBe(renderText(translator('es'), english.body.text, 'es'));
    // Everything but the message is what an English caller reads.
    expect({ ...spanish.body, message: null }).toEqual({ ...english.body, message: null });

    await withLanguage('dispatch@skyline.test', 'fr', async () => {
      const french = await book('dispatch@skyline.test', tooFar());
      expect(french.headers.get('content-language')).toBe('fr');
      expect(french.body.message).toMatch(/^On ne peut réserver que 365 jours à l’avance/);
      expect(french.body).toMatchObject({ code: 'HORIZON', text: english.body.text });
      // The header wins over the user's language; q weights order the languages named.
      expect((await book('dispatch@skyline.test', tooFar(), 'en')).body.message).toBe(english.body.message);
      const weighted = await book('dispatch@skyline.test', tooFar(), 'de;q=0.4, es;q=0.9, pt;q=1');
      expect(weighted.body.message).toBe(spanish.body.message);
    });
    expect(await bookingCount()).toBe(before);
  });

  it('an unknown language falls back to English (to the user’s own language when they chose one)', async () => {
    const pt = await book('dispatch@skyline.test', tooFar(), 'pt-BR');
    expect(pt.body.message).toMatch(/^Bookings can be made at most 365 days ahead/);
    expect(pt.headers.get('content-language')).toBe('en');
    const unauthenticated = await s.api('GET', '/notifications.json', {
      headers: { 'Accept-Language': 'xx, *;q=0.5' },
    });
    expect(unauthenticated.body.message).toBe('Authentication required');
    await withLanguage('dispatch@skyline.test', 'de', async () => {
      const german = await book('dispatch@skyline.test', tooFar(), 'pt-BR');
      expect(german.body.message).toMatch(/365 Tage/);
      expect(german.headers.get('content-language')).toBe('de');
    });
  });

  it('a 4xx for bad input: the message in Spanish, the field errors and status unchanged; nothing written', async () => {
    const token = await t('admin@skyline.test');
    const before = (await s.api('GET', '/bases/index.json', { token })).body;
    const bad = { Base: { name: 'Nul\u0000 Field' } };
    const english = await s.api('POST', '/bases/add.json', { token, body: bad });
    const spanish = await s.api('POST', '/bases/add.json', { token, body: bad, headers: { 'Accept-Language': 'es' } });
    expect(english.status).toBe(400);
    expect(spanish.status).toBe(400);
    expect(english.body.message).toBe('Validation failed');
    expect(spanish.body.message).toBe('La validación ha fallado');
    expect(spanish.headers.get('content-language')).toBe('es');
    // The field keys stay; the texts follow the language (issue 33).
    expect(english.body.errors).toEqual({ body: ['Text may not contain NUL characters'] });
    expect(spanish.body.errors).toEqual({ body: ['El texto no puede contener caracteres NUL'] });
    // Malformed JSON, before any route: the same.
    const malformed = await s.api('POST', '/login.json', {
      body: '{"email": "x@y.z",',
      headers: { 'Accept-Language': 'fr' },
    });
    expect(malformed).toMatchObject({
      status: 400,
      body: { result: false, message: 'Corps de requête mal formé : JSON non valide' },
    });
    expect((await s.api('GET', '/bases/index.json', { token })).body).toEqual(before);
  });

  it('the field errors of a 400 in the request’s language: zod’s own texts and the schemas’ texts, keys unchanged', async () => {
    const ask = async (path: string, email: string, body: unknown, language?: string) =>
      s.api('POST', path, {
        token: await t(email),
        body,
        ...(language ? { headers: { 'Accept-Language': language } } : {}),
      });
    // Bases: the router's validation; a schema's own text (name) and zod's own words (default).
    const badBase = { Base: { name: 42, default: [1] } };
    const baseEn = await ask('/bases/add.json', 'admin@skyline.test', badBase);
    const baseEs = await ask('/bases/add.json', 'admin@skyline.test', badBase, 'es');
    expect(baseEn.status).toBe(400);
    expect(baseEn.body.errors).toEqual({
      name: ['Name is required'],
      default: [expect.stringMatching(/^Invalid input/)],
    });
    expect(baseEs.status).toBe(400);
    expect(baseEs.body.errors).toEqual({
      name: [translator('es')('forms.nameRequired')],
      default: [expect.stringMatching(/^Entrada inválida/)],
    });
    expect(baseEs.headers.get('content-language')).toBe('es');
    // Safety reports: the route parses the report itself (a service-side parse) with the schema's own 'Required'.
    const badReport = { SafetyReport: { name: '', location: '' } };
    const srEn = await ask('/safety_reports/create.json', 'pilot@skyline.test', badReport);
    const srEs = await ask('/safety_reports/create.json', 'pilot@skyline.test', badReport, 'es');
    expect(srEn.status, JSON.stringify(srEn.body)).toBe(400);
    expect(srEs.status).toBe(400);
    const enErrors = (srEn.body.errors ?? srEn.body.validation) as Record<string, string[]>;
    const esErrors = (srEs.body.errors ?? srEs.body.validation) as Record<string, string[]>;
    expect(Object.keys(esErrors).sort()).toEqual(Object.keys(enErrors).sort());
    expect(Object.values(enErrors).flat()).toContain('Required');
    expect(Object.values(esErrors).flat()).toContain('Obligatorio');
    expect(Object.values(esErrors).flat()).not.toContain('Required');
    expect(srEs.headers.get('content-language')).toBe('es');
  });

  it('a declared status (`reply`) too; a message the catalogue does not hold stays English and says so', async () => {
    const token = await t('dispatch@skyline.test');
    const path = `/uploads/index/User/${s.userId('dispatch@skyline.test')}.json?page=abc`;
    const english = await s.api('GET', path, { token });
    const spanish = await s.api('GET', path, { token, headers: { 'Accept-Language': 'es' } });
    expect(english.body).toEqual({
      result: false,
      message: 'Validation failed',
      errors: { page: [expect.any(String)] },
    });
    expect(spanish.status).toBe(400);
    expect(spanish.body).toEqual({
      result: false,
      message: 'La validación ha fallado',
      errors: { page: ['Se esperaba un número entero positivo'] },
    });
    expect(spanish.headers.get('content-language')).toBe('es');
    // A sync protocol text for devices, which no person reads: left English on purpose, and the header says so.
    const stream = await s.api('GET', '/sync/stream.json?collections=nope', {
      token,
      headers: { 'Accept-Language': 'de' },
    });
    expect(stream.status).toBe(404);
    expect(stream.body.message).toBe('No known collection requested');
    expect(stream.headers.get('content-language')).toBe('en');
  });

  it('an API key speaks as its user; the declared 403 of a session-only route in German', async () => {
    const created = await s.api('POST', '/manager/api_keys/add.json', {
      token: await t('admin@skyline.test'),
      body: { name: 'language test', user_id: s.userId('dispatch@skyline.test') },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const key = created.body.key.plaintext as string;
    await withLanguage('dispatch@skyline.test', 'de', async () => {
      const r = await s.api('GET', '/manager/api_keys.json', { token: key });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('API-Schlüssel können hier nicht verwendet werden; melden Sie sich interaktiv an');
      expect(r.headers.get('content-language')).toBe('de');
      expect(
        (await s.api('GET', '/manager/api_keys.json', { token: key, headers: { 'Accept-Language': 'en' } })).body
          .message,
      ).toBe('API keys cannot be used here; sign in interactively');
    });
  });

  it('a grounded aircraft: the readiness MEL line carries its message, the booking refusal reads French', async () => {
    const admin = await t('admin@skyline.test');
    const settings = await s.api('POST', '/readiness/settings.json', {
      token: admin,
      body: { ...DEFAULT_READINESS_SETTINGS, checks: { ...DEFAULT_READINESS_SETTINGS.checks, MEL: 'block' } },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
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
    const start = Math.floor(Date.now() / 1000 / DAY) * DAY + 40 * DAY + 10 * HOUR;
    const slot = {
      aircraft_id: s.refs.aircraft['EC-ABC'],
      pilot_id: pilot,
      flight_type_id: types.Solo,
      start,
      end: start + HOUR,
    };
    const ready = await s.api('POST', '/schedules/readiness.json', {
      token: await t('dispatch@skyline.test'),
      body: slot,
    });
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    const mel = ready.body.lines.find((l: { code: string }) => l.code === 'MEL');
    expect(mel).toMatchObject({
      level: 'block',
      message: 'Open defect “Nose gear shimmy” (ATA 32, CRITICAL) grounds the aircraft.',
      text: { id: 'aircraft-reports.groundingDetails' },
    });
    expect(renderText(translator('fr'), mel.text, 'fr')).toBe(
      'Le défaut ouvert « Nose gear shimmy » (ATA 32, CRITIQUE) immobilise l’aéronef.',
    );
    await withLanguage('dispatch@skyline.test', 'fr', async () => {
      const refused = await book('dispatch@skyline.test', slot);
      expect(refused.body).toMatchObject({ result: false, code: 'AIRCRAFT_BLOCKED' });
      expect(refused.body.message).toBe(
        'EC-ABC ne peut pas être réservé : Le défaut ouvert « Nose gear shimmy » (ATA 32, CRITIQUE) immobilise l’aéronef.',
      );
    });
  });
});
