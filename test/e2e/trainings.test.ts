/**
 * Trainings offline end to end (issue 18 item 7, issue 19 item 9): the demo
 * instructor opens today's class with the network cut, marks attendance and
 * the marks reach the server when back online; the demo student completes a
 * lesson offline and it syncs, and sees their class work grade and
 * justification status with the network cut; the managers' overview. The instructor signs
 * the class with their password (a wrong one signs nothing); a signed class
 * takes no more marks, also offline. Screenshots in
 * docs/screenshots/trainings-*.png.
 */
import type { Browser } from 'playwright-core';
import { attendanceEditRefusal } from '@ops/shared/rules/trainings/attendance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import {
  CHROMIUM,
  eventually,
  hasChromium,
  launch,
  newPage,
  screenshot,
  signIn,
  waitForServiceWorker,
  waitOffline,
  waitOnline,
} from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

describe.skipIf(!hasChromium)('trainings (Chromium, offline-first)', () => {
  let s: TestServer;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0], { seed: 'demo' });
    browser = await launch();
    url = `${s.url}/app/`;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('an instructor takes attendance of today’s class offline; the marks reach the server when back online', async () => {
    const studentId = s.userId('student@skyline.test');
    const row = await s.ctx.db
      .selectFrom('training_session_students as ss')
      .innerJoin('training_sessions as c', 'c.id', 'ss.session_id')
      .select(['ss.id', 'c.id as class_id'])
      .where('ss.user_id', '=', studentId)
      .where('c.teacher_id', '=', s.userId('instructor@skyline.test'))
      // Today's class (Charts, not signed yet); the seed's other class of this teacher was signed days ago.
      .where('c.signed_at', 'is', null)
      .executeTakeFirstOrThrow();
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'instructor@skyline.test');
      await waitOnline(page);
      await page.click('nav button:has-text("Classes today")');
      const card = page.locator(`[data-testid=class][data-class="${row.class_id}"]`);
      await card.locator(`[data-testid=class-student][data-student="${studentId}"]`).waitFor();
      await waitForServiceWorker(page);

      await context.setOffline(true);
      await waitOffline(page);
      await card
        .locator(`[data-testid=class-student][data-student="${studentId}"] button[data-status=attended]`)
        .click();
      await expect
        .poll(() =>
          card.locator(`[data-student="${studentId}"] button[data-status=attended]`).getAttribute('aria-pressed'),
        )
        .toBe('true');
      await card.getByText('Waiting to sync').waitFor();
      expect(await card.locator('[data-testid=sign-class]').isDisabled()).toBe(true);
      expect(
        (
          await s.ctx.db
            .selectFrom('training_session_students')
            .select('attendance_status')
            .where('id', '=', row.id)
            .executeTakeFirstOrThrow()
        ).attendance_status,
      ).toBeNull();
      await screenshot(page, 'trainings-today-offline');

      await context.setOffline(false);
      await waitOnline(page);
      const stored = await eventually(async () => {
        const r = await s.ctx.db
          .selectFrom('training_session_students')
          .select(['attendance_status', 'attended'])
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        return r.attendance_status === 'attended' ? r : null;
      }, 'the attendance on the server');
      expect(Number(stored.attended)).toBe(1);
      // Online and nothing left to push: signing asks for the password (the sign endpoint checks it).
      await expect.poll(() => card.locator('[data-testid=sign-class]').isDisabled(), { timeout: 30_000 }).toBe(false);
      await card.locator('[data-testid=sign-class]').click();
      const form = card.locator('form[aria-label="Sign attendance"]');
      const signedAt = async () =>
        (
          await s.ctx.db
            .selectFrom('training_sessions')
            .select('signed_at')
            .where('id', '=', row.class_id)
            .executeTakeFirstOrThrow()
        ).signed_at;

      // A wrong password: refused with the server's message, nothing signed, the marks still open.
      await form.locator('input[type=password]').fill('not-my-password');
      await form.locator('button:has-text("Sign")').click();
      await expect.poll(() => card.locator('[role=alert]').textContent()).toContain('Wrong password');
      expect(await signedAt()).toBeNull();
      expect(await card.locator('header .badge').textContent()).toBe('Not signed');
      expect(await card.locator(`[data-student="${studentId}"] button[data-status=absent]`).isDisabled()).toBe(false);

      // The demo password (test/e2e/support.ts): signed on the server and shown at once.
      await form.locator('input[type=password]').fill('demo1234');
      await form.locator('button:has-text("Sign")').click();
      await card.locator('[data-testid=class-signed]').waitFor();
      expect(await card.locator('header .badge').textContent()).toBe('Signed');
      expect(await card.locator('[role=alert]').count()).toBe(0);
      expect(await signedAt()).not.toBeNull();
      expect(
        (
          await s.ctx.db
            .selectFrom('training_sessions')
            .select('signed_by')
            .where('id', '=', row.class_id)
            .executeTakeFirstOrThrow()
        ).signed_by,
      ).toBe(s.userId('instructor@skyline.test'));
      // A signed class takes no marks: the buttons are disabled and the screen says why (the shared rule's reason).
      const reason = attendanceEditRefusal(
        { id: s.userId('instructor@skyline.test'), role: 150 },
        { teacher_id: s.userId('instructor@skyline.test'), signed_at: 1 },
      );
      expect(reason).toMatch(/signed/);
      await expect.poll(() => card.locator('[data-testid=attendance-locked]').textContent()).toBe(reason);
      expect(await card.locator(`[data-student="${studentId}"] button[data-status=absent]`).isDisabled()).toBe(true);
      expect(await card.locator(`[data-student="${studentId}"] button[data-status=absent]`).getAttribute('title')).toBe(
        reason,
      );
      await screenshot(page, 'trainings-today');

      // Offline, after a reload (the class as pulled into the local database): still signed, still refused.
      await expect.poll(() => card.getAttribute('data-signed-stored'), { timeout: 30_000 }).toBe('true');
      await context.setOffline(true);
      await page.reload();
      await waitOffline(page);
      await page.click('nav button:has-text("Classes today")');
      await card.locator('[data-testid=class-signed]').waitFor();
      expect(await card.locator('[data-testid=attendance-locked]').textContent()).toBe(reason);
      const absent = card.locator(`[data-student="${studentId}"] button[data-status=absent]`);
      expect(await absent.isDisabled()).toBe(true);
      await absent.click({ force: true }).catch(() => {});
      expect(await card.getByText('Waiting to sync').count()).toBe(0);
      expect(
        await card.locator(`[data-student="${studentId}"] button[data-status=attended]`).getAttribute('aria-pressed'),
      ).toBe('true');
      await context.setOffline(false);
      await waitOnline(page);
      expect(
        (
          await s.ctx.db
            .selectFrom('training_session_students')
            .select('attendance_status')
            .where('id', '=', row.id)
            .executeTakeFirstOrThrow()
        ).attendance_status,
      ).toBe('attended');

      await page.click('button:has-text("Week")');
      await page.locator('[data-testid=training-week] .tr-event').first().waitFor();
      await screenshot(page, 'trainings-week');
    } finally {
      await context.close();
    }
  });

  it('a student completes a lesson offline and it syncs; their grade and justification show offline', async () => {
    const studentId = s.userId('student@skyline.test');
    const enrollment = await s.ctx.db
      .selectFrom('training_enrollments')
      .select('id')
      .where('user_id', '=', studentId)
      .executeTakeFirstOrThrow();
    const lesson = await s.ctx.db
      .selectFrom('training_lessons as l')
      .innerJoin('training_activities as a', 'a.entity_id', 'l.id')
      .select(['l.name', 'a.id as activity_id'])
      .where('l.name', '=', 'Dead reckoning')
      .executeTakeFirstOrThrow();
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'student@skyline.test');
      await waitOnline(page);
      await page.click('nav button:has-text("My training")');
      const item = page.locator(`[data-testid=activity][data-name="${lesson.name}"]`);
      await item.waitFor();
      await page.locator('[data-testid=next-classes] li').first().waitFor();
      expect(
        await page.locator('[data-testid=enrollment] [role=progressbar]').first().getAttribute('aria-valuenow'),
      ).toBe('50');
      await waitForServiceWorker(page);

      await context.setOffline(true);
      await waitOffline(page);
      await item.locator('button:has-text("Mark complete")').click();
      await item.getByText('Done').waitFor();
      // Computed on the device with the shared progress rules: 6 of 10.
      await expect
        .poll(() => page.locator('[data-testid=enrollment] [role=progressbar]').first().getAttribute('aria-valuenow'))
        .toBe('60');
      // Grades and justifications are in the local collection: shown with the network cut.
      const grade = await s.ctx.db
        .selectFrom('training_classwork_grades')
        .select(['session_id', 'score', 'feedback'])
        .where('user_id', '=', studentId)
        .executeTakeFirstOrThrow();
      const justification = await s.ctx.db
        .selectFrom('training_justifications')
        .select(['session_id', 'status'])
        .where('user_id', '=', studentId)
        .executeTakeFirstOrThrow();
      const gradedClass = page.locator(`[data-testid=my-class][data-class="${grade.session_id}"]`);
      expect(await gradedClass.locator('[data-testid=grade]').textContent()).toBe(`${grade.score} ${grade.feedback}`);
      expect(
        await page
          .locator(`[data-testid=my-class][data-class="${justification.session_id}"] [data-testid=justification]`)
          .textContent(),
      ).toBe(justification.status);
      expect(await page.locator('[data-testid=my-class]').count()).toBe(4);
      await screenshot(page, 'trainings-my-training');
      expect(
        await s.ctx.db
          .selectFrom('training_progress')
          .select('id')
          .where('enrollment_id', '=', enrollment.id)
          .where('activity_id', '=', lesson.activity_id)
          .executeTakeFirst(),
      ).toBeUndefined();

      await context.setOffline(false);
      await waitOnline(page);
      const stored = await eventually(
        () =>
          s.ctx.db
            .selectFrom('training_progress')
            .select(['value'])
            .where('enrollment_id', '=', enrollment.id)
            .where('activity_id', '=', lesson.activity_id)
            .executeTakeFirst(),
        'the completion on the server',
      );
      expect(Number(stored.value)).toBe(1);
      const summary = await s.api('GET', `/trainings/students/summary/${enrollment.id}.json`, {
        token: await s.login('student@skyline.test'),
      });
      expect(summary.body.theory.progress).toMatchObject({ completed: 6, total: 10 });
    } finally {
      await context.close();
    }
  });

  it('the managers’ overview lists trainings with their students and progress', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'headtraining@skyline.test');
      await waitOnline(page);
      await page.click('nav button:has-text("Training overview")');
      await page.locator('[data-testid=overview-student]').first().waitFor();
      expect(await page.locator('[data-testid=overview-training]').first().textContent()).toContain('1 student');
      await screenshot(page, 'trainings-overview');
    } finally {
      await context.close();
    }
  });
});
