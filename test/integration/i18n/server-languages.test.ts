/**
 * Issue 33 on the server: API messages in the caller's language (Accept-Language,
 * else the user's `language`), mails in the recipient's, PDFs in the requester's.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { categoryId, createSR, reportBody } from '../safety-reports/safety-helpers.ts';

async function pdfText(buf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(buf), useSystemFonts: false, isEvalSupported: false }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return parts.join('\n');
}

describe.each(DIALECTS)('languages on the server on %s', (dialect) => {
  let s: TestServer;
  let admin: string;
  let pilot: string;
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const setLanguage = (token: string, language: string) =>
    ok(s.api('POST', '/users/edit.json', { token, body: { User: { language } } }));

  beforeAll(async () => {
    s = await startTestServer(dialect);
    [admin, pilot] = await Promise.all([s.login('admin@skyline.test'), s.login('pilot@skyline.test')]);
  });
  afterAll(() => s?.close());

  it('an API error in French through Accept-Language; the code and status stay, English without a preference', async () => {
    const fr = await s.api('GET', '/notifications.json', { headers: { 'Accept-Language': 'fr-FR,fr;q=0.9,en;q=0.5' } });
    expect(fr.status).toBe(401);
    expect(fr.body).toMatchObject({ result: false, message: 'Authentification requise' });
    const en = await s.api('GET', '/notifications.json');
    expect(en.body.message).toBe('Authentication required');
    // An unsupported language falls through to English.
    expect((await s.api('GET', '/notifications.json', { headers: { 'Accept-Language': 'pt-BR' } })).body.message).toBe(
      'Authentication required',
    );
    const missing = await s.api('GET', '/no/such/route.json', { headers: { 'Accept-Language': 'de' } });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/^Keine Route für GET \S*\/no\/such\/route\.json$/);
  });

  it("without Accept-Language the user's own language; the header wins over it", async () => {
    const token = await s.login('dispatch@skyline.test');
    await setLanguage(token, 'es');
    const wrong = await s.api('POST', '/users/password.json', {
      token,
      body: { password: 'nope', newpassword: 'another-pass-123', newpasswordrepeat: 'another-pass-123' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('La contraseña actual no es correcta');
    const de = await s.api('POST', '/users/password.json', {
      token,
      headers: { 'Accept-Language': 'de' },
      body: { password: 'nope', newpassword: 'another-pass-123', newpasswordrepeat: 'another-pass-123' },
    });
    expect(de.body.message).toBe('Das aktuelle Passwort ist falsch');
    // A message the catalogue does not know stays as thrown, never an empty text.
    const bad = await s.api('POST', '/users/edit.json', { token, body: { User: { language: 'español' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBeTruthy();
  });

  it('the Spanish attendance mail: a student whose language is Spanish reads the missed-class mail in Spanish', async () => {
    const head = await s.login('headtraining@skyline.test');
    const instructor = await s.login('instructor@skyline.test');
    const student = await s.login('student@skyline.test');
    await setLanguage(student, 'es');
    const studentId = s.userId('student@skyline.test');
    const instructorId = s.userId('instructor@skyline.test');
    const post = (path: string, body: unknown, token = head) => s.api('POST', path, { token, body });
    const training = (
      await ok(post('/manager/trainings/trainings/create.json', { name: 'PPL teórico', type: 'ONSITE' }))
    ).id;
    const subject = (
      await ok(
        post('/manager/trainings/subjects/edit.json', {
          training_id: training,
          name: 'Meteorología',
          teacher_id: instructorId,
        }),
      )
    ).id;
    const lesson = (
      await ok(
        post('/manager/trainings/lessons/edit.json', { training_subject_id: subject, name: 'Nubes', minutes: 60 }),
      )
    ).id;
    await ok(post('/manager/trainings/students/enroll.json', { training_id: training, students: [studentId] }));
    const klass = (
      await ok(
        post('/manager/trainings/onsite/class.json', {
          training_subject_id: subject,
          training_subject_lesson_id: lesson,
          start: Math.floor(Date.now() / 1000) - 7200,
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
      .select(['subject', 'body_text', 'body_html'])
      .where('template', '=', 'class_missed')
      .where('to_address', '=', 'student@skyline.test')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toMatch(/^No asistió a la clase Meteorología del /);
    expect(mail.body_text).toContain('Hola Stefan');
    expect(mail.body_text).toContain('usted figura como ausente');
    expect(mail.body_text).not.toContain('You missed');
    expect(mail.body_html).toContain('Puede enviar una justificación');
  });

  it('a safety report PDF in German for a German-speaking requester', async () => {
    const safety = await s.login('safety@skyline.test');
    await setLanguage(safety, 'de');
    const bird = await categoryId(s, 'Bird strike');
    const r = await createSR(s, pilot, reportBody(bird, { name: 'Vogelschlag im Endanflug' }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const res = await fetch(
      `${s.baseUrl}/safety_reports/view/${r.body.id}/pdf:true?token=${encodeURIComponent(safety)}`,
    );
    expect(res.status).toBe(200);
    const text = await pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain(`Sicherheitsbericht ${r.body.idn}`);
    expect(text).not.toContain('Safety report');
    // The same report for an English-speaking manager keeps the English title.
    const en = await fetch(`${s.baseUrl}/safety_reports/view/${r.body.id}/pdf:true?token=${encodeURIComponent(admin)}`);
    expect(await pdfText(Buffer.from(await en.arrayBuffer()))).toContain(`Safety report ${r.body.idn}`);
  });

  it("in-app notifications in each recipient's language: the same news, Spanish for one, English for another", async () => {
    const mechanic = await s.login('mechanic@skyline.test');
    await setLanguage(mechanic, 'es');
    const ops = await s.login('ops@skyline.test');
    await ok(
      s.api('POST', '/manager/news/news/edit.json', {
        token: ops,
        body: { News: { name: 'Hangar cerrado', notification: 'yes' }, NewsRecipient: { user_group_id: [190, 300] } },
      }),
    );
    const titles = async (token: string) =>
      (await ok(s.api('GET', '/notifications.json', { token }))).notifications.map((n: any) => n.title);
    expect(await titles(mechanic)).toContain('Noticia: Hangar cerrado');
    expect(await titles(mechanic)).not.toContain('News: Hangar cerrado');
    const other = await s.api('GET', '/notifications.json', { token: await s.login('pilot@skyline.test') });
    const otherTitles = other.body.notifications.map((n: any) => n.title);
    expect(otherTitles).toContain('News: Hangar cerrado');
  });
});
