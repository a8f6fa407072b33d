/**
 * Issue 33, the office screens of company, users, bases, news, pilot groups,
 * duty and readiness: an administrator whose profile language is Spanish walks
 * each of them and reads Spanish, none of the screen's English texts left (a
 * confirmation included); the operations manager reads the crew duty board in
 * German. One screenshot per area: docs/screenshots/languages-es-<area>.png.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { hasChromium, launch, newPage, screenshot, signIn, screensHalf } from './support.ts';

/** One screen: its menu name, what shows it is loaded, words it must show and English words it must not. */
interface Walk {
  area: string;
  menu: string;
  ready: string;
  has: string[];
  hasNot: string[];
}

const SPANISH: Walk[] = [
  {
    area: 'company',
    menu: 'Ajustes de la empresa',
    ready: '[data-testid=company-settings] form',
    has: ['Perfil y apariencia', 'Antelación máxima de reserva (días)', 'Guardar ajustes', 'Facturación activada'],
    hasNot: ['Company settings', 'Profile and theme', 'Booking horizon', 'Save settings', 'Billing enabled'],
  },
  {
    area: 'hours',
    menu: 'Horario de operación',
    ready: '[data-testid=operating-hours] tr[data-weekday="0"]',
    has: ['Lunes', 'Excepciones por fecha', 'Guardar el horario de la empresa', 'Empresa (por defecto)'],
    hasNot: ['Monday', 'Dated overrides', '+ window', 'Save company hours', 'Company default', 'Times in'],
  },
  {
    area: 'permissions',
    menu: 'Permisos',
    ready: '[data-testid=permissions] tbody tr',
    has: ['Crear vuelos', 'Confirmar vuelos', 'Administrador de la empresa', 'Alumno piloto'],
    hasNot: ['Flight.create', 'Tick to grant', 'Company administrator', 'Student pilot'],
  },
  {
    area: 'alerts',
    menu: 'Alertas',
    ready: '[data-testid=alerts] [data-group=danger]',
    has: ['Caducado', 'En menos de un mes', 'En menos de tres meses', 'Todo'],
    hasNot: ['Expired', 'Within a month', 'Within three months', 'Everything', 'Aircraft document'],
  },
  {
    area: 'users',
    menu: 'Usuarios',
    ready: '[data-testid=users] tbody tr',
    has: ['Nuevo usuario', 'Desactivar', 'Administrador de la empresa', 'Dos pasos'],
    hasNot: ['New user', 'Deactivate', 'Two-factor', 'Company administrator', 'Flight instructor'],
  },
  {
    area: 'bases',
    menu: 'Bases y actividad',
    ready: '[data-testid=bases] .base-detail table',
    has: ['Nueva base', 'Cuadrante de actividad', ': tripulación', 'Elegir…'],
    hasNot: ['New base', 'Duty schedule', ': crew', 'Choose…', 'Nothing scheduled ahead'],
  },
  {
    area: 'news',
    menu: 'Noticias',
    ready: '[data-testid=news]',
    has: ['Escribir una noticia'],
    hasNot: ['Write an article', 'signature needed', 'No news.'],
  },
  {
    area: 'pilot-groups',
    menu: 'Grupos de pilotos',
    ready: '[data-testid=pilot-groups] .group-list li',
    has: ['Crear grupo', 'Activar a todos', 'Desactivar a todos', 'Enviar correos de bienvenida', 'miembros'],
    hasNot: ['Create group', 'Activate all', 'Deactivate all', 'Send welcome mails', 'New group name'],
  },
  {
    area: 'duty',
    menu: 'Mi actividad',
    ready: '[data-testid=duty-this-week] tbody tr',
    has: ['Esta semana', 'Límite diario de actividad', 'Actividad, últimos 7 días', 'Con lo previsto'],
    hasNot: ['This week', 'Daily duty limit', 'Duty, last 7 days', 'With planned', 'Flight hours'],
  },
  {
    area: 'crew-duty',
    menu: 'Actividad de la tripulación',
    ready: '[data-testid=duty-limits]',
    has: ['Semana anterior', 'Límite diario de actividad', 'por encima de un límite'],
    hasNot: ['Previous week', 'Daily duty limit', 'past a limit', 'Year flight'],
  },
  {
    area: 'readiness',
    // The menu's own name comes from the shell's catalogue.
    menu: 'Comprobaciones prevuelo',
    ready: 'form.readiness-settings select',
    has: ['Aptitud para el vuelo', 'Saldo por debajo del mínimo', 'Bloquear', 'Mínimo de alumnos: viento cruzado (kt)'],
    hasNot: ['Flight readiness', 'Balance below the minimum', 'Ignore', 'Warn', 'Student minimum'],
  },
];

/** The screens whose screenshot stands for the area (one per area). */
const SHOT: Record<string, string> = {
  company: 'company',
  users: 'users',
  bases: 'bases',
  news: 'news',
  'pilot-groups': 'pilot-groups',
  duty: 'duty',
  readiness: 'readiness',
};

describe.skipIf(!hasChromium || !screensHalf)(
  'languages: the L2 office screens in Spanish and German (Chromium)',
  () => {
    let s: TestServer;
    let browser: Browser;

    beforeAll(async () => {
      s = await startTestServer(DIALECTS[0], { seed: 'demo' });
      browser = await launch();
      // The profile's language is what a new sign-in opens in (the browser itself is English).
      for (const [email, language] of [
        ['admin@skyline.test', 'es'],
        ['ops@skyline.test', 'de'],
      ]) {
        const token = await s.login(email);
        const r = await s.api('POST', '/users/edit.json', { token, body: { User: { language } } });
        expect(r.status).toBe(200);
      }
    });
    afterAll(async () => {
      await browser?.close();
      await s?.close();
    });

    const open = async (page: Page, w: Walk) => {
      await page.click(`nav.sidenav button:text-is("${w.menu}")`);
      await page.waitForSelector(w.ready);
    };
    const mainText = async (page: Page) => (await page.locator('main.content').textContent()) ?? '';

    it('an administrator in Spanish walks every screen: Spanish texts, no English left', async () => {
      const { context, page } = await newPage(browser);
      try {
        await signIn(page, `${s.url}/app/`, 'admin@skyline.test');
        await page.waitForSelector('nav.sidenav button:text-is("Mi cuenta")');
        for (const w of SPANISH) {
          await open(page, w);
          // Wait for the Spanish texts (some arrive with the screen's data), then nothing English may remain.
          await expect.poll(() => mainText(page), { timeout: 15_000 }).toContain(w.has[0]);
          const text = await mainText(page);
          for (const es of w.has) expect(text, `${w.area} shows "${es}"`).toContain(es);
          for (const en of w.hasNot) expect(text, `${w.area} still shows "${en}"`).not.toContain(en);
          if (SHOT[w.area]) await screenshot(page, `languages-es-${SHOT[w.area]}`);

          if (w.area === 'pilot-groups') {
            // The confirmation before mails go out is Spanish too; dismissed, nothing is sent.
            let asked = '';
            page.once('dialog', (d) => {
              asked = d.message();
              void d.dismiss();
            });
            await page
              .locator('[data-group="Private pilots"]')
              .getByRole('button', { name: /^Enviar correos de bienvenida/ })
              .click();
            await expect.poll(() => asked).toMatch(/^¿Enviar un correo de bienvenida a \d+ miembros? activos? de /);
            expect(asked).not.toContain('welcome');
          }
        }
      } finally {
        await context.close();
      }
    });

    it('the operating-hours row messages and the pager count read Spanish too (shared rule, office kit)', async () => {
      const { context, page } = await newPage(browser);
      try {
        await signIn(page, `${s.url}/app/`, 'admin@skyline.test');
        await page.click('nav.sidenav button:text-is("Horario de operación")');
        await page.waitForSelector('[data-testid=operating-hours] tr[data-weekday="0"]');
        // Two windows 09:00-17:00 on Monday overlap: the shared rule refuses before anything is sent.
        const monday = page.locator('[data-testid=operating-hours] tr[data-weekday="0"]');
        await monday.getByRole('button', { name: /^\+ franja/ }).click();
        await monday.getByRole('button', { name: /^\+ franja/ }).click();
        await page.getByRole('button', { name: 'Guardar el horario de la empresa' }).click();
        const rows = page.locator('[data-testid=hours-messages]');
        await expect
          .poll(async () => (await rows.textContent()) ?? '', { timeout: 15_000 })
          .toMatch(/se solapan el lunes\./);
        const said = (await rows.textContent()) ?? '';
        expect(said).toMatch(/Las filas \d+ y \d+ se solapan el lunes\./);
        expect(said).not.toMatch(/overlap|Monday|Row/);
        await screenshot(page, 'languages-es-hours-rows');

        // The users list's count under its pager (office-kit) is Spanish.
        await page.click('nav.sidenav button:text-is("Usuarios")');
        await page.waitForSelector('[data-testid=users] tbody tr');
        await expect.poll(() => mainText(page), { timeout: 15_000 }).toMatch(/\d+ en total|Página \d+ de \d+/);
        expect(await mainText(page)).not.toMatch(/ in all|Previous|Next/);
      } finally {
        await context.close();
      }
    });

    it('the operations manager reads the crew duty board in German', async () => {
      const { context, page } = await newPage(browser);
      try {
        await signIn(page, `${s.url}/app/`, 'ops@skyline.test');
        await page.click('nav.sidenav button:text-is("Dienst der Besatzung")');
        await page.waitForSelector('[data-testid=duty-limits]');
        const text = await mainText(page);
        for (const de of ['Vorige Woche', 'Nächste Woche', 'Tägliche Dienstzeitgrenze', 'über einer Grenze'])
          expect(text).toContain(de);
        for (const en of ['Previous week', 'Next week', 'Daily duty limit', 'past a limit', 'Crew duty'])
          expect(text).not.toContain(en);
        await screenshot(page, 'languages-de-crew-duty');
      } finally {
        await context.close();
      }
    });
  },
);
