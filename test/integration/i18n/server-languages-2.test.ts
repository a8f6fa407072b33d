/**
 * Issue 33 on the server, second round (safety reports, trainings, reports, pilots):
 * the areas' own messages in the caller's language (errors, placeholders, success
 * answers), notifications in each recipient's, the attendance mail's dates in the
 * recipient's language with the company's formats, the class feed's name.
 */
import ical from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { categoryId, reportBody, setPlan } from '../safety-reports/safety-helpers.ts';

describe.each(DIALECTS)('languages of the L4 areas on the server on %s', (dialect) => {
  let s: TestServer;
  let pilot: string;
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const setLanguage = (token: string, language: string) =>
    ok(s.api('POST', '/users/edit.json', { token, body: { User: { language } } }));
  const lang = (l: string) => ({ 'Accept-Language': l });

  beforeAll(async () => {
    s = await startTestServer(dialect);
    pilot = await s.login('pilot@skyline.test');
  });
  afterAll(() => s?.close());

  it('safety reports: a missing and another company’s report are 404 in the caller’s language; a save answers in it', async () => {
    const missing = await s.api('GET', '/safety_reports/view/0190aaaa-0000-7000-8000-000000000000.json', {
      token: pilot,
      headers: lang('es'),
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ result: false, message: 'Notificación de seguridad no encontrada' });

    const bird = await categoryId(s, 'Bird strike');
    const made = await s.api('POST', '/safety_reports/create.json', {
      token: pilot,
      headers: lang('fr'),
      body: reportBody(bird),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.message).toBe('Compte rendu de sécurité enregistré');
    // English without a preference: the same answer as before issue 33.
    const again = await s.api('POST', '/safety_reports/create.json', { token: pilot, body: reportBody(bird) });
    expect(again.body.message).toBe('Safety report saved');

    // Harbor on a plan with safety reports, so the refusal is the record's, not the plan's.
    await setPlan(s, 'harbor', 'premium');
    const harbor = await s.login('admin@harbor.test');
    const foreign = await s.api('GET', `/safety_reports/view/${made.body.id}.json`, {
      token: harbor,
      headers: lang('de'),
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Sicherheitsmeldung nicht gefunden');
    await setPlan(s, 'harbor', 'free');
  });

  it('a message with a placeholder (reports) keeps its value; field texts in the language, keys kept', async () => {
    const bad = await s.api('GET', '/reports/total_landings/-/-/yesterday.json', { token: pilot, headers: lang('de') });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      result: false,
      message: 'since muss in Unix-Sekunden angegeben werden',
      errors: { since: ['Unix-Sekunden erwartet'] },
    });
    const en = await s.api('GET', '/reports/total_landings/-/-/yesterday.json', { token: pilot });
    expect(en.body.message).toBe('since must be unix seconds');
    expect(en.body.errors).toEqual({ since: ['Expected unix seconds'] });
    const metar = await s.api('GET', '/reports/metar/12.json', { token: pilot, headers: lang('es') });
    expect(metar.status).toBe(404);
    expect(metar.body.message).toBe('Código de aeródromo no válido');
  });

  it('pilots: the user’s own language without Accept-Language; the header wins', async () => {
    const student = await s.login('student@skyline.test');
    await setLanguage(student, 'fr');
    const other = s.userId('pilot@skyline.test');
    const refused = await s.api('GET', `/pilots/changes/${other}.json`, { token: student });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Vous ne pouvez voir que l’historique de votre propre compte');
    const de = await s.api('GET', `/pilots/changes/${other}.json`, { token: student, headers: lang('de') });
    expect(de.body.message).toBe('Sie können nur den Verlauf Ihres eigenen Kontos sehen');
    await setLanguage(student, 'en');
  });

  it('a new safety report notifies each manager in their own language, status names included', async () => {
    const safety = await s.login('safety@skyline.test');
    await setLanguage(safety, 'es');
    const admin = await s.login('admin@skyline.test');
    await setLanguage(admin, 'de');
    const bird = await categoryId(s, 'Bird strike');
    const r = await ok(
      s.api('POST', '/safety_reports/create.json', {
        token: pilot,
        body: reportBody(bird, { name: 'Gaviota en final', location: 'LELL' }),
      }),
    );
    const latest = async (token: string) =>
      (await ok(s.api('GET', '/notifications.json', { token }))).notifications.find((n: { link: string }) =>
        n.link?.includes(r.id),
      );
    const es = await latest(safety);
    expect(es.title).toBe(`Notificación de seguridad ${r.idn}: Gaviota en final`);
    expect(es.body).toMatch(/^Nueva notificación \([^)]+\) en LELL el 2026-03-14, enviada por /);
    const de = await latest(admin);
    expect(de.title).toBe(`Sicherheitsmeldung ${r.idn}: Gaviota en final`);
    expect(de.body).toMatch(/^Neue Meldung \([^)]+\) in LELL am 2026-03-14, erstellt von /);

    // A status change: the old and new status by name, in the reader's language.
    await ok(
      s.api('POST', `/safety_reports/edit/${r.id}.json`, {
        token: admin,
        body: { SafetyReport: { status: 'reviewed' } },
      }),
    );
    const pilotNote = (await ok(s.api('GET', '/notifications.json', { token: pilot }))).notifications.find(
      (n: { link: string; title: string }) => n.link?.includes(r.id),
    );
    expect(pilotNote.title).toBe(`Safety report ${r.idn} updated: Open → Reviewed`);
    const esMoved = await latest(safety);
    expect(esMoved.title).toBe(`Notificación de seguridad ${r.idn} actualizada: Abierta → Revisada`);
    expect(esMoved.body).toMatch(/^Estado cambiado de Abierta a Revisada por /);
    await setLanguage(safety, 'en');
    await setLanguage(admin, 'en');
  });

  it('the attendance mail: dates in the student’s language and the company’s formats; the class feed in the owner’s language', async () => {
    const admin = await s.login('admin@skyline.test');
    const head = await s.login('headtraining@skyline.test');
    const instructor = await s.login('instructor@skyline.test');
    const student = await s.login('student@skyline.test');
    await ok(
      s.api('POST', '/manager/companies/edit.json', {
        token: admin,
        body: { CompanySetting: { date_format: 'DD-MM-YYYY', time_format: '24' } },
      }),
    );
    await setLanguage(student, 'es');
    const studentId = s.userId('student@skyline.test');
    const instructorId = s.userId('instructor@skyline.test');
    const post = (path: string, body: unknown, token = head) => s.api('POST', path, { token, body });
    const training = (await ok(post('/manager/trainings/trainings/create.json', { name: 'PPL(A)', type: 'ONSITE' })))
      .id;
    const subject = (
      await ok(
        post('/manager/trainings/subjects/edit.json', {
          training_id: training,
          name: 'Navegación',
          teacher_id: instructorId,
        }),
      )
    ).id;
    await ok(post('/manager/trainings/students/enroll.json', { training_id: training, students: [studentId] }));
    const start = Math.floor(Date.now() / 1000) - 7200;
    const klass = (
      await ok(
        post('/manager/trainings/onsite/class.json', {
          training_subject_id: subject,
          start,
          teacher_id: instructorId,
          students: studentId,
        }),
      )
    ).id;
    await ok(
      post(
        '/trainings/onsite/store_attendance.json',
        { classId: klass, students: [{ user_id: studentId, attendance_status: 'absent' }] },
        instructor,
      ),
    );
    await ok(post('/trainings/onsite/sign_class.json', { classId: klass, password: 'demo1234' }, instructor));
    const mail = await s.ctx.db
      .selectFrom('mail_outbox')
      .select(['subject', 'body_text'])
      .where('template', '=', 'class_missed')
      .where('to_address', '=', 'student@skyline.test')
      .where('subject', 'like', '%Navegación%')
      .executeTakeFirstOrThrow();
    // Day first (the company's order) with the Spanish separator, 24 hours.
    expect(mail.subject).toMatch(/^No asistió a la clase Navegación del \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} \S+/);
    expect(mail.body_text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(mail.body_text).not.toContain('no deadline');

    // The student's class feed: its name in Spanish; the subject's name stays as written.
    const feed = await ok(post('/trainings/calendar/feed.json', {}, student));
    const ics = String((await s.api('GET', feed.path.replace('/api/v1', ''))).body);
    expect(ics).toContain('X-WR-CALNAME:Clases de ');
    const events = Object.values(ical.sync.parseICS(ics)).filter((e: any) => e.type === 'VEVENT') as any[];
    expect(events.map((e) => e.summary)).toContain('Navegación');
    await setLanguage(student, 'en');
    const english = String((await s.api('GET', feed.path.replace('/api/v1', ''))).body);
    expect(english).toMatch(/X-WR-CALNAME:.* classes/);
    await ok(
      s.api('POST', '/manager/companies/edit.json', {
        token: admin,
        body: { CompanySetting: { date_format: 'YYYY-MM-DD' } },
      }),
    );
  });
});
