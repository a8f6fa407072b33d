/**
 * Issue 33, the L4 areas: each demo role whose profile says Spanish walks its
 * screens of safety reports, trainings, the logbook and statistics, and the pilot
 * directory; one walk in German. A known English text of those screens left on
 * the page fails the test. One screenshot per area (docs/screenshots/languages-es-*).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { hasChromium, launch, newPage, screenshot, signIn, screensHalf } from './support.ts';

describe.skipIf(!hasChromium || !screensHalf)('languages: the L4 screens in Spanish and German (Chromium)', () => {
  let s: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0], { seed: 'demo' });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  /** Signs `email` in with their profile language set to `language` first (the app opens in it). */
  async function as(email: string, language: string, walk: (page: Page) => Promise<void>) {
    const token = await s.login(email);
    const saved = await s.api('POST', '/users/edit.json', { token, body: { User: { language } } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, `${s.url}/app/`, email);
      await page.waitForFunction(`document.documentElement.lang === ${JSON.stringify(language)}`);
      await walk(page);
    } finally {
      await context.close();
      await s.api('POST', '/users/edit.json', { token, body: { User: { language: 'en' } } });
    }
  }

  async function open(page: Page, hash: string, testId: string) {
    await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
    await page.waitForSelector(`[data-testid=${testId}]`);
  }

  /** The main area's text has every `present` text and none of the English `absent` ones. */
  async function reads(page: Page, present: string[], absent: string[]) {
    // The screen's loading state passes first: wait for the first expected text.
    await page.waitForSelector(`main.content :text("${present[0]}")`);
    const text = (await page.locator('main.content').textContent()) ?? '';
    for (const p of present) expect(text, `missing "${p}"`).toContain(p);
    const left = absent.filter((a) => text.includes(a));
    expect(left, 'English left on the screen').toEqual([]);
  }

  it('safety reports in Spanish: list, filing form, statistics, risk matrix', async () => {
    await as('safety@skyline.test', 'es', async (page) => {
      await open(page, '#safety', 'safety');
      await reads(
        page,
        ['Informes de seguridad', 'Notificar un suceso', 'Estadísticas', 'Matriz de riesgo', 'Gravedad', 'Lugar'],
        ['Safety reports', 'File a report', 'Statistics', 'Risk matrix', 'Severity', 'Location', 'not numbered'],
      );
      const statuses = await page.locator('[data-testid=safety-filter-status] option').allTextContents();
      expect(statuses).toEqual(['Todos', 'Borrador', 'Abierta', 'Revisada', 'Cerrada', 'Publicada']);
      await screenshot(page, 'languages-es-safety-reports');

      await page.click('[data-testid=safety-tab-file]');
      await page.waitForSelector('[data-testid=safety-form]');
      await reads(
        page,
        ['Fase de vuelo', 'Qué ocurrió', 'Probabilidad del riesgo', 'Notificar de forma anónima'],
        [
          'Flight phase',
          'What happened',
          'Risk probability',
          'File anonymously',
          'Keep as a draft',
          'Back to the list',
        ],
      );
      const phases = await page.locator('select[name=flight_phase] option').allTextContents();
      expect(phases).toContain('APR Aproximación');
      expect(phases).not.toContain('APR Approach');
      // A date in the future: the shared rule's refusal in Spanish, before anything is queued.
      const form = page.locator('[data-testid=safety-form]');
      await form.locator('input[name=name]').fill('Prueba');
      await form.locator('input[name=datetime]').fill('2090-01-01T10:00');
      await form.locator('input[name=location]').fill('LELL');
      await form.locator('textarea[name=events]').fill('Nada');
      await form.locator('select[name=flight_phase]').selectOption('APR');
      await form
        .locator('select[name=safety_report_category_id] option:not([disabled])')
        .first()
        .waitFor({ state: 'attached' });
      const category = await form
        .locator('select[name=safety_report_category_id] option:not([disabled])')
        .first()
        .getAttribute('value');
      await form.locator('select[name=safety_report_category_id]').selectOption(category ?? '');
      await form.locator('button[type=submit]').click();
      expect(await page.locator('[data-testid=safety-datetime-error]').textContent()).toBe(
        'La fecha del suceso no puede ser futura',
      );

      await page.click('[data-testid=safety-tab-risk]');
      await page.waitForSelector('[data-testid=safety-risk]');
      await reads(
        page,
        ['Frecuente', 'Catastrófico', 'Probabilidad \\ Gravedad'],
        ['Frequent', 'Catastrophic', 'Negligible'],
      );

      await page.click('[data-testid=safety-tab-stats]');
      await page.waitForSelector('[data-testid=safety-stats]');
      await reads(page, ['Notificaciones por mes y gravedad', 'Por categoría'], ['Reports per month', 'By category']);
    });
  });

  it('trainings in Spanish: the student’s, the instructor’s and the training manager’s screens', async () => {
    await as('student@skyline.test', 'es', async (page) => {
      await open(page, '#my-training', 'my-training');
      await reads(
        page,
        ['Mi formación', 'Próximas clases', 'Plazos', 'Mis clases'],
        ['My training', 'Next classes', 'Deadlines', 'My classes', 'Mark complete', 'Waiting to sync', 'No classes'],
      );
      await screenshot(page, 'languages-es-trainings');
    });
    await as('instructor@skyline.test', 'es', async (page) => {
      await open(page, '#training-today', 'training-today');
      await reads(
        page,
        ['Clases', 'Hoy', 'Semana'],
        ['Today', 'Week', 'No classes today', 'Sign attendance', 'Not signed'],
      );
      await page.click('main.content button:text-is("Semana")');
      await page.waitForSelector('[data-testid=training-week]');
      await reads(page, ['Semana anterior', 'Esta semana'], ['Previous week', 'This week', 'Next week']);
    });
    await as('headtraining@skyline.test', 'es', async (page) => {
      await open(page, '#training-overview', 'training-overview');
      await reads(page, ['Resumen de formación'], ['Training overview', 'Progress', 'Inactive', ' students', 'Status']);
    });
  });

  it('the logbook and the company statistics in Spanish', async () => {
    await as('pilot@skyline.test', 'es', async (page) => {
      await open(page, '#logbook', 'logbook');
      await reads(
        page,
        ['Mi libro de vuelo', 'Totales', 'Tiempo calzo a calzo', 'Experiencia reciente', 'Rutas voladas'],
        ['My logbook', 'Totals', 'Block time', 'Currency', 'Routes flown', 'Flight hours by month', 'Figures from'],
      );
      await page.waitForSelector('[data-testid=currency-verdict]');
      const verdict = (await page.locator('[data-testid=currency-verdict]').textContent()) ?? '';
      expect(verdict).toMatch(/^(Experiencia reciente vigente|Sin experiencia reciente)/);
      await screenshot(page, 'languages-es-reports');
    });
    await as('admin@skyline.test', 'es', async (page) => {
      await open(page, '#company-stats', 'company-stats');
      await page.waitForSelector('[data-testid=company-stats-months]');
      await reads(
        page,
        ['Estadísticas de la empresa', 'Vuelos y horas por mes', 'Por aeronave (12 meses)', 'Tipo de vuelo'],
        ['Company statistics', 'Per aircraft', 'Block time', 'Flight type', 'Landings'],
      );
    });
  });

  it('the pilot directory in Spanish and a pilot’s page in German', async () => {
    await as('admin@skyline.test', 'es', async (page) => {
      await open(page, '#pilots', 'pilots');
      await page.waitForSelector('[data-testid=pilot-table]');
      await reads(
        page,
        ['Directorio de pilotos', 'Exportar .xlsx', 'Buscar', 'Aplicar', 'Contacto'],
        ['Pilot directory', 'Export .xlsx', 'Search', 'Apply', 'Everyone', 'Pilot group', 'Non-flying'],
      );
      expect(await page.locator('input[type=search]').getAttribute('placeholder')).toBe('Nombre, correo, pasaporte…');
      await screenshot(page, 'languages-es-pilots');
    });
    await as('admin@skyline.test', 'de', async (page) => {
      await open(page, `#pilot/${s.userId('pilot@skyline.test')}`, 'pilot-page');
      await page.waitForSelector('[data-testid=total-time]');
      await reads(
        page,
        ['Profil', 'Summen', 'Gesamtzeit', 'Fortlaufende Flugerfahrung', 'Mitglied seit'],
        ['Profile', 'Totals', 'Total time', 'Currency', 'Member since', 'Before joining', 'Supervisor'],
      );
      await screenshot(page, 'languages-de-pilot');
    });
  });
});
