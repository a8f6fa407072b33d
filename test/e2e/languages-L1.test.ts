/**
 * Issue 33, the screens of billing, accounts (API keys), uploads (photos), aircraft (fleet board) and the
 * shell's leftovers (menu names, the Changes screen), read as a person does in Chromium: a manager and a
 * mechanic whose profile language is Spanish walk them, a pilot reads My billing in German. Each screen must
 * show its Spanish (German) words and none of its known English ones; money and hours use the language's
 * separators. Screenshots: docs/screenshots/languages-es-<area>.png and languages-de-billing.png.
 */
import { messagesOf } from '@ops/shared/i18n/index';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { hasChromium, launch, newPage, screenshot, signIn, waitOnline, screensHalf } from './support.ts';

/** English words a screen must no longer show, as whole words (so "Editar" does not count as "Edit"). */
function englishLeft(text: string, words: readonly string[]): string[] {
  return words.filter((w) =>
    new RegExp(`(^|[^\\p{L}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u').test(text),
  );
}

const mainText = async (page: Page) => (await page.locator('main.content').textContent()) ?? '';

async function open(page: Page, label: string) {
  await page.locator('nav.sidenav button', { hasText: label }).first().click();
}

describe.skipIf(!hasChromium || !screensHalf)(
  'languages: billing, API keys, photos, fleet and the shell in Spanish and German',
  () => {
    let s: TestServer;
    let browser: Browser;
    let url: string;

    beforeAll(async () => {
      s = await startTestServer(DIALECTS[0], { seed: 'demo' });
      browser = await launch();
      url = `${s.url}/app/`;
      // Each person's own profile language (the app follows it after sign-in, whatever the browser says).
      for (const [email, language] of [
        ['admin@skyline.test', 'es'],
        ['mechanic@skyline.test', 'es'],
        ['pilot@skyline.test', 'de'],
      ] as const) {
        const token = await s.login(email);
        const r = await s.api('POST', '/users/edit.json', { token, body: { User: { language } } });
        expect(r.status, email).toBe(200);
      }
    });
    afterAll(async () => {
      await browser?.close();
      await s?.close();
    });

    it('a manager in Spanish: menu names, Accounts with its dialog, Rates, My billing, API keys, Changes', async () => {
      const { context, page } = await newPage(browser);
      try {
        await signIn(page, url, 'admin@skyline.test');
        await page.waitForSelector('nav.sidenav button:text-is("Cuentas")');
        await waitOnline(page);

        // The menu: no screen keeps its English name (the registry labels added last round included).
        const labels = (await page.locator('nav.sidenav button').allTextContents()).map((l) => l.trim());
        const en = messagesOf('en');
        const es = messagesOf('es');
        const englishNames = Object.entries(en)
          .filter(([id]) => id.startsWith('shell.screen'))
          .map(([id, text]) => [text, es[id]] as const)
          .filter(([text, spanish]) => text !== spanish)
          .map(([text]) => text);
        expect(labels.filter((l) => englishNames.includes(l) || ['Company flights', 'Readiness'].includes(l))).toEqual(
          [],
        );
        expect(labels).toEqual(expect.arrayContaining(['Cuentas', 'Tarifas', 'Claves de API', 'Flota']));
        expect(labels).toContain('Vuelos de la escuela');
        expect(labels).toContain('Comprobaciones prevuelo');
        // The top bar names the role in Spanish too.
        expect(await page.locator('header.topbar .brand small').textContent()).toContain('Administrador de la empresa');

        // Accounts: the list, one person's account, the add form's check and the confirm dialog.
        await open(page, 'Cuentas');
        const balances = page.locator('[data-testid=balances]');
        await balances.waitFor();
        let text = await mainText(page);
        for (const w of ['Buscar', 'Ocultar saldos a cero', 'Persona', 'Saldo', 'Exportar movimientos', 'cuentas'])
          expect(text).toContain(w);
        expect(
          englishLeft(text, [
            'Find',
            'Hide zero balances',
            'Person',
            'Balance',
            'Export entries',
            'accounts',
            'owed to the school',
            'Pick a person',
            'Format',
          ]),
        ).toEqual([]);
        await balances.locator('tbody tr button.link').first().click();
        const panel = page.locator('[data-testid=account-panel]');
        await panel.locator('[data-testid=entries], p.empty').first().waitFor();
        const form = panel.locator('form[aria-label="Añadir un movimiento"]');
        await form.getByLabel(/Importe/).fill('12,345');
        await form.locator('button[type=submit]').click();
        await expect
          .poll(() => form.locator('.field-error').textContent())
          .toBe('Como máximo dos decimales (céntimos)');
        await form.getByLabel(/Importe/).fill('250');
        await form.locator('button[type=submit]').click();
        const dialog = page.locator('[data-testid=confirm-dialog]');
        await dialog.waitFor();
        expect(await dialog.locator('h2').textContent()).toMatch(/^¿Añadir un pago para .+\?$/);
        expect(await dialog.locator('[data-testid=confirm-effect]').textContent()).toMatch(
          /^Se registra un pago de 250,00\s€ para .+\. El saldo de .+ pasa de .+ a .+\.$/,
        );
        text = await mainText(page);
        for (const w of ['Movimientos', 'Horas de bono', 'Pago', 'Bono', 'Ajuste', 'Registrar el pago', 'Cancelar'])
          expect(text).toContain(w);
        expect(
          englishLeft(text, [
            'Entries',
            'Package hours',
            'Amount',
            'Description',
            'Book the payment',
            'Cancel',
            'Kind',
            'Tax',
            'Actions',
            'Reverse',
            'This books',
          ]),
        ).toEqual([]);
        await screenshot(page, 'languages-es-billing');
        await dialog.locator('button', { hasText: 'Cancelar' }).click();
        await dialog.waitFor({ state: 'detached' });

        // Rates: the basis sentence, the table and the manager's form.
        await open(page, 'Tarifas');
        await page.locator('form[aria-label="Añadir una tarifa"]').waitFor();
        await page.locator('[data-testid=rates]').waitFor();
        text = await mainText(page);
        for (const w of ['Se cobra por hora', 'Por hora', 'Añadir tarifa', 'Tipo', 'Avión']) expect(text).toContain(w);
        expect(
          englishLeft(text, [
            'Charged per hour',
            'Per hour',
            'Add rate',
            'Kind',
            'Aircraft',
            'Instructor rates',
            'Edit',
            'Delete',
            'Pick',
            'For',
          ]),
        ).toEqual([]);
        // A rate's amount reads with the Spanish decimal comma (the demo ledger has rates).
        await page.locator('[data-testid=rates] tbody td.num').first().waitFor();
        expect(await page.locator('[data-testid=rates] tbody td.num').first().textContent()).toMatch(/\d,\d\d\s€$/);

        // My billing (the manager's own account).
        await open(page, 'Mi facturación');
        await page.locator('[data-testid=my-billing] h1:text-is("Mi cuenta de facturación")').waitFor();
        await page.locator('[data-testid=balance]').waitFor();
        text = await mainText(page);
        for (const w of ['Saldo', 'Horas de bono prepagado', 'Descargar extracto (PDF)', 'Mes del extracto'])
          expect(text).toContain(w);
        expect(
          englishLeft(text, [
            'Balance',
            'Prepaid package hours',
            'Download statement',
            'Statement month',
            'Full history',
          ]),
        ).toEqual([]);
        // The statement months are named in Spanish.
        expect(await page.locator('[data-testid=statement-month] option').first().textContent()).toMatch(
          /^(enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre) de \d{4}$/,
        );

        // API keys: the screen and the form's own check.
        await open(page, 'Claves de API');
        const keyForm = page.locator('form[aria-label="Nueva clave de API"]');
        await keyForm.waitFor();
        await keyForm.locator('button[type=submit]').click();
        await expect.poll(() => keyForm.textContent()).toContain('El nombre es obligatorio');
        text = await mainText(page);
        for (const w of ['Claves de API', 'Actúa como', 'Crear clave', 'Caduca (opcional)']) expect(text).toContain(w);
        expect(
          englishLeft(text, [
            'Create key',
            'Acts as',
            'Expires',
            'Last used',
            'Name is required',
            'No API key yet',
            'Name',
          ]),
        ).toEqual([]);
        await screenshot(page, 'languages-es-accounts');

        // The shell's Changes screen.
        await open(page, 'Sincronización y rechazos');
        await page.locator('h2:text-is("Sincronización y rechazos")').waitFor();
        text = await mainText(page);
        for (const w of [
          'Rechazado por el servidor',
          'Esperando al servidor',
          'Decisiones recientes',
          'esperando al servidor',
        ])
          expect(text).toContain(w);
        expect(
          englishLeft(text, [
            'Rejected by the server',
            'Waiting for the server',
            'Recent decisions',
            'Nothing rejected',
          ]),
        ).toEqual([]);
        await screenshot(page, 'languages-es-shell');
      } finally {
        await context.close();
      }
    });

    it('a mechanic in Spanish: the fleet board and a defect’s photo picker', async () => {
      const { context, page } = await newPage(browser);
      try {
        await signIn(page, url, 'mechanic@skyline.test');
        const board = page.locator('[data-testid=fleet-board]');
        await board.locator('article.aircraft-card').first().waitFor();
        await page.locator('h2:text-is("Flota")').waitFor();
        const text = await mainText(page);
        expect(text).toMatch(/\d+ aeronaves? · \d+ elementos? MEL\/CDL abiertos? · \d+ bloqueadas · plazos en /);
        expect(text).toContain('Registro técnico');
        expect(text).toMatch(/aterrizajes?/);
        expect(
          englishLeft(text, [
            'open MEL/CDL items',
            'open MEL/CDL item',
            'deadlines in',
            'Dispatchable',
            'Blocked',
            'Grounded',
            'Technical log',
            'landings',
            'open reports',
            'No open MEL or CDL items',
            'OPEN',
            'EXPIRING SOON',
            'no deadline',
          ]),
        ).toEqual([]);
        // Deadlines in words: Spanish dates and counters (titles and block reasons are data or other areas' texts).
        for (const d of await board.locator('.item-deadline').allTextContents())
          expect(d).toMatch(
            /^(hasta |sin plazo|límite desconocido|quedan? |\d+ (vuelos?|ciclos?|días? de vuelo) agotados?)/,
          );
        await screenshot(page, 'languages-es-aircraft');

        // A defect of an aircraft with open items: its photo picker.
        const card = board.locator('article.aircraft-card', { has: page.locator('.items li') }).first();
        await card.locator('footer button').click();
        const pick = page.locator('[data-testid=photos] label.photo-pick').first();
        await pick.waitFor();
        expect((await pick.textContent())?.trim()).toBe('Añadir foto');
        expect(await pick.locator('input[type=file]').getAttribute('aria-label')).toBe('Añadir foto');
        await pick.scrollIntoViewIfNeeded();
        await screenshot(page, 'languages-es-uploads');
      } finally {
        await context.close();
      }
    });

    it('a pilot in German: My billing with German money and words', async () => {
      const { context, page } = await newPage(browser);
      try {
        await signIn(page, url, 'pilot@skyline.test');
        await page.waitForSelector('nav.sidenav button:text-is("Meine Abrechnung")');
        await open(page, 'Meine Abrechnung');
        await page.locator('[data-testid=my-billing] h1:text-is("Mein Abrechnungskonto")').waitFor();
        await page.locator('[data-testid=balance]').waitFor();
        expect(await page.locator('[data-testid=balance]').textContent()).toMatch(/^-?[\d.]+,\d\d\s€$/);
        expect(await page.locator('[data-testid=package-balance]').textContent()).toMatch(/^\d+,\d Std\.$/);
        const text = await mainText(page);
        for (const w of [
          'Kontostand',
          'Vorausbezahlte Paketstunden',
          'Kontoauszug herunterladen (PDF)',
          'Letzte Buchungen',
        ])
          expect(text).toContain(w);
        expect(
          englishLeft(text, [
            'Balance',
            'Prepaid package hours',
            'Download statement',
            'Last entries',
            'Full history',
            'Date',
            'Kind',
            'Amount',
            'Stored on this device',
          ]),
        ).toEqual([]);
        await screenshot(page, 'languages-de-billing');
      } finally {
        await context.close();
      }
    });
  },
);
