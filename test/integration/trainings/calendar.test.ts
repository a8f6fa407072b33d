import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ical from 'node-ical';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

async function pdfText(buf: Buffer): Promise<{ pages: number; text: string }> {
  const doc = await getDocument({ data: new Uint8Array(buf), useSystemFonts: false, isEvalSupported: false }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return { pages: doc.numPages, text: parts.join('\n').replace(/\s+/g, ' ') };
}

/** Calendar, ICS feed and certificate (Part B 4.7 item 19). */
describe.each(DIALECTS)('training calendar and certificate on %s', (dialect) => {
  let s: TestServer;
  let admin: string;
  let instructor: string;
  let dispatch: string;
  let student: string;
  let pilot: string;
  let harbor: string;
  let ppl: string;
  let other: string;
  let studentId: string;
  let instructorId: string;
  let enrollment: string;
  let classA: string;
  const day = 86400;
  const base = Math.floor(Date.now() / 1000 / day) * day + 2 * day;
  const at = base + 9 * 3600; // 09:00 UTC, two days ahead

  const post = (p: string, body: unknown, token = admin) => s.api('POST', p, { token, body });
  const get = (p: string, token = admin) => s.api('GET', p, { token });
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const iso = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

  beforeAll(async () => {
    s = await startTestServer(dialect);
    [admin, instructor, dispatch, student, pilot, harbor] = await Promise.all(
      [
        'admin@skyline.test',
        'instructor@skyline.test',
        'dispatch@skyline.test',
        'student@skyline.test',
        'pilot@skyline.test',
        'admin@harbor.test',
      ].map((e) => s.login(e)),
    );
    studentId = s.userId('student@skyline.test');
    instructorId = s.userId('instructor@skyline.test');
    const pilotId = s.userId('pilot@skyline.test');
    ppl = (
      await ok(
        post('/manager/trainings/trainings/create.json', {
          name: 'PPL(A) Ñandú course',
          type: 'ONSITE',
          theory: true,
          color: '#2266aa',
        }),
      )
    ).id;
    other = (
      await ok(post('/manager/trainings/trainings/create.json', { name: 'Night rating', type: 'ONSITE', theory: true }))
    ).id;
    const sub = (
      await ok(
        post('/manager/trainings/subjects/edit.json', { training_id: ppl, name: 'Air Law', teacher_id: instructorId }),
      )
    ).id;
    const lesson = (
      await ok(
        post('/manager/trainings/lessons/edit.json', { training_subject_id: sub, name: 'ICAO annexes', minutes: 90 }),
      )
    ).id;
    await ok(
      post('/manager/trainings/lessons/edit.json', {
        training_subject_id: sub,
        name: 'Rules of the air',
        minutes: 150,
      }),
    );
    const sub2 = (await ok(post('/manager/trainings/subjects/edit.json', { training_id: ppl, name: 'Meteorology' })))
      .id;
    await ok(post('/manager/trainings/lessons/edit.json', { training_subject_id: sub2, name: 'Clouds', minutes: 120 }));
    const nightSub = (
      await ok(post('/manager/trainings/subjects/edit.json', { training_id: other, name: 'Night VFR' }))
    ).id;
    const enrolled = await ok(
      post('/manager/trainings/students/enroll.json', { training_id: ppl, students: [studentId, pilotId] }),
    );
    enrollment = enrolled.results[studentId].TrainingsUser.id;
    await ok(post('/manager/trainings/students/enroll.json', { training_id: other, students: [pilotId] }));
    const loc = (
      await ok(
        post('/manager/trainings/locations/edit.json', {
          name: 'Room 2',
          type: 'CLASSROOM',
          country_id: 'ES',
          timezone_id: 'Europe/Madrid',
          address: 'Hangar 1',
        }),
      )
    ).id;
    classA = (
      await ok(
        post('/manager/trainings/onsite/class.json', {
          training_subject_id: sub,
          training_subject_lesson_id: lesson,
          start: at,
          teacher_id: instructorId,
          location_id: loc,
          students: studentId,
        }),
      )
    ).id;
    await ok(
      post('/manager/trainings/onsite/class.json', {
        training_subject_id: nightSub,
        start: at + 3 * 3600,
        minutes: 60,
        teacher_id: s.userId('ground@skyline.test'),
        students: pilotId,
      }),
    );
  });
  afterAll(() => s?.close());

  it('calendar: events in the asked zone, by visibility; timeZone required; bad ranges 400', async () => {
    const q = `start=${iso(base)}&end=${iso(base + day)}`;
    const madrid = await ok(get(`/trainings/trainings/calendar.json?${q}&timeZone=Europe/Madrid`, student));
    expect(madrid.timeZone).toBe('Europe/Madrid');
    expect(madrid.events).toHaveLength(1);
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Madrid', timeZoneName: 'longOffset' })
      .formatToParts(new Date(at * 1000))
      .find((p) => p.type === 'timeZoneName')?.value;
    const hh = offset === 'GMT+02:00' ? '11' : '10';
    expect(madrid.events[0]).toMatchObject({
      id: classA,
      title: 'Air Law · ICAO annexes',
      start: `${iso(base)}T${hh}:00:00${offset?.slice(3)}`,
      training_name: 'PPL(A) Ñandú course',
      color: '#2266aa',
      location_name: 'Room 2',
      role: 'student',
      signed: false,
      attendance_status: null,
    });
    expect(Date.parse(madrid.events[0].end) - Date.parse(madrid.events[0].start)).toBe(90 * 60 * 1000);
    const ny = await ok(
      get(`/trainings/trainings/calendar.json?start=${at - 3600}&end=${at + 3600}&timeZone=America/New_York`, student),
    );
    expect(ny.events[0].start).toMatch(/T0[45]:00:00-0[45]:00$/);
    const all = await ok(get(`/trainings/trainings/calendar.json?${q}&timeZone=UTC`, instructor));
    expect(all.events.map((e: any) => e.role).sort()).toEqual(['staff', 'teacher']);
    const filtered = await ok(
      get(`/trainings/trainings/calendar.json?${q}&timeZone=UTC&training=${other}`, instructor),
    );
    expect(filtered.events.map((e: any) => e.training_name)).toEqual(['Night rating']);
    expect(
      (await ok(get(`/trainings/trainings/calendar.json?${q}&timeZone=UTC`, pilot))).events.map(
        (e: any) => e.training_name,
      ),
    ).toEqual(['Night rating']);
    expect((await ok(get(`/trainings/trainings/calendar.json?${q}&timeZone=UTC`, dispatch))).events).toEqual([]);
    expect((await ok(get(`/trainings/trainings/calendar.json?${q}&timeZone=UTC`, harbor))).events).toEqual([]);
    const missing = await get(`/trainings/trainings/calendar.json?${q}`, student);
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toContain('timeZone');
    expect((await get(`/trainings/trainings/calendar.json?${q}&timeZone=Mars/Base`, student)).status).toBe(400);
    expect(
      (await get(`/trainings/trainings/calendar.json?start=${iso(base + day)}&end=${iso(base)}&timeZone=UTC`, student))
        .status,
    ).toBe(400);
    expect((await get(`/trainings/trainings/calendar.json?start=soon&end=later&timeZone=UTC`, student)).status).toBe(
      400,
    );
    expect(
      (await get(`/trainings/trainings/calendar.json?start=2020-01-01&end=2026-01-01&timeZone=UTC`, student)).status,
    ).toBe(400);
    expect((await s.api('GET', `/trainings/trainings/calendar.json?${q}&timeZone=UTC`)).status).toBe(401);
  });

  it('ICS feed: a secret URL that parses with node-ical, replaced when made again, 404 once revoked', async () => {
    expect((await ok(get('/trainings/calendar/feed.json', student))).active).toBe(false);
    expect((await post('/trainings/calendar/feed/revoke.json', {}, student)).status).toBe(404);
    const made = await ok(post('/trainings/calendar/feed.json', {}, student));
    expect(made.path).toMatch(/^\/api\/v1\/trainings\/calendar\/ics\/trn_.+\.ics$/);
    expect((await ok(get('/trainings/calendar/feed.json', student))).active).toBe(true);
    const feed = await s.api('GET', made.path.replace('/api/v1', ''));
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/text\/calendar/);
    const events = Object.values(ical.sync.parseICS(String(feed.body))).filter(
      (e: any) => e.type === 'VEVENT',
    ) as any[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      uid: `${classA}@trainings`,
      summary: 'Air Law · ICAO annexes',
      location: 'Room 2, Hangar 1',
    });
    expect(events[0].start.getTime() / 1000).toBe(at);
    expect(events[0].end.getTime() / 1000).toBe(at + 90 * 60);
    // The instructor's own feed holds the class they teach, not the whole company.
    const mine = await ok(post('/trainings/calendar/feed.json', {}, instructor));
    const theirs = Object.values(
      ical.sync.parseICS(String((await s.api('GET', mine.path.replace('/api/v1', ''))).body)),
    ).filter((e: any) => e.type === 'VEVENT') as any[];
    expect(theirs.map((e) => e.uid)).toEqual([`${classA}@trainings`]);
    const again = await ok(post('/trainings/calendar/feed.json', {}, student));
    expect((await s.api('GET', made.path.replace('/api/v1', ''))).status).toBe(404);
    expect((await s.api('GET', again.path.replace('/api/v1', ''))).status).toBe(200);
    await ok(post('/trainings/calendar/feed/revoke.json', {}, student));
    expect((await s.api('GET', again.path.replace('/api/v1', ''))).status).toBe(404);
    expect((await s.api('GET', '/trainings/calendar/ics/trn_not_a_real_token_at_all.ics')).status).toBe(404);
  });

  it('certificate: a real PDF of a completed enrollment only; the student or staff', async () => {
    expect((await get(`/trainings/trainings/certificate/${enrollment}.json`, student)).body.code).toBe('NOT_COMPLETED');
    await s.ctx.db
      .updateTable('users')
      .set({ name: 'Stéfan', surname: 'Müller-Núñez' })
      .where('id', '=', studentId)
      .execute();
    await ok(post('/manager/trainings/students/status.json', { id: enrollment, status: 'COMPLETED' }));
    expect((await get(`/trainings/trainings/certificate/${enrollment}.json`, pilot)).status).toBe(403);
    expect((await get(`/trainings/trainings/certificate/${enrollment}.json`, harbor)).status).toBe(404);
    expect((await s.api('GET', `/trainings/trainings/certificate/${enrollment}.json`)).status).toBe(401);
    const res = await fetch(
      `${s.baseUrl}/trainings/trainings/certificate/${enrollment}.json?token=${encodeURIComponent(student)}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/pdf');
    const buf = Buffer.from(await res.arrayBuffer());
    expect(buf.subarray(0, 5).toString()).toBe('%PDF-');
    const { pages, text } = await pdfText(buf);
    expect(pages).toBe(1);
    for (const want of [
      'Certificate of completion',
      'Stéfan Müller-Núñez',
      'PPL(A) Ñandú course',
      'Air Law 4.0 h',
      'Meteorology 2.0 h',
      '6.0 ground hours',
      enrollment,
    ])
      expect(text, want).toContain(want);
    expect((await get(`/trainings/trainings/certificate/${enrollment}.json`, instructor)).status).toBe(200);
    if (fs.existsSync('/usr/bin/pdftoppm')) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cert-pdf-'));
      fs.writeFileSync(path.join(dir, 'c.pdf'), buf);
      execFileSync('pdftoppm', [
        '-png',
        '-r',
        '80',
        '-f',
        '1',
        '-l',
        '1',
        '-singlefile',
        path.join(dir, 'c.pdf'),
        path.join(dir, 'page'),
      ]);
      const png = fs.readFileSync(path.join(dir, 'page.png'));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.length).toBeGreaterThan(10_000);
      if (process.env.UPDATE_SCREENSHOTS)
        fs.copyFileSync(
          path.join(dir, 'page.png'),
          path.resolve(__dirname, '../../../docs/screenshots/training-certificate.png'),
        );
    }
  });
});
