/**
 * The shared UI pieces (ui.tsx, office-kit.tsx) speak the app's language: the
 * pending badge's tooltip, the pager's words and count, the progress line.
 */
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { type Locale, messagesOf, translator } from '@ops/shared/i18n/index';
import { Busy, Pager } from './areas/office-kit.tsx';
import { TRACKED_FIELDS } from '@ops/shared/rules/safety-reports/safety';
import { PendingBadge } from './ui.tsx';

const inLocale = (locale: Locale, el: ReactElement) =>
  renderToStaticMarkup(createElement(IntlProvider, { locale, messages: messagesOf(locale) }, el));

const many = { page: 2, pageCount: 3, count: 1234, prevPage: true, nextPage: true };
const one = { page: 1, pageCount: 1, count: 7, prevPage: false, nextPage: false };

describe('shared UI pieces in the app language', () => {
  it('English reads as before', () => {
    expect(inLocale('en', createElement(PendingBadge))).toContain(
      'title="Saved on this device; the server has not decided yet"',
    );
    expect(inLocale('en', createElement(PendingBadge))).toContain('pending</span>');
    const pager = inLocale('en', createElement(Pager, { paginate: many, onPage() {} }));
    expect(pager).toContain('aria-label="Pages"');
    expect(pager).toContain('>Previous<');
    expect(pager).toContain('>Next<');
    expect(pager).toContain('Page 2 of 3 · 1,234 in all');
    expect(inLocale('en', createElement(Pager, { paginate: one, onPage() {} }))).toContain('>7 in all<');
    expect(inLocale('en', createElement(Busy))).toContain('Loading…');
  });

  it('Spanish: tooltip, pager and progress translated, numbers grouped the Spanish way', () => {
    const badge = inLocale('es', createElement(PendingBadge));
    expect(badge).toContain('title="Guardado en este dispositivo; el servidor aún no ha decidido"');
    expect(badge).toContain('pendiente</span>');
    const pager = inLocale('es', createElement(Pager, { paginate: many, onPage() {} }));
    expect(pager).toContain('aria-label="Páginas"');
    expect(pager).toContain('>Anterior<');
    expect(pager).toContain('>Siguiente<');
    expect(pager).toContain('Página 2 de 3 · 1234 en total');
    expect(pager).not.toMatch(/Previous|Next|in all/);
    expect(inLocale('es', createElement(Busy))).toContain('Cargando…');
  });

  it('French and German too; a given label or word wins over the default', () => {
    expect(inLocale('fr', createElement(Pager, { paginate: one, onPage() {} }))).toContain('>7 au total<');
    expect(inLocale('de', createElement(Pager, { paginate: many, onPage() {} }))).toContain(
      'Seite 2 von 3 · 1.234 insgesamt',
    );
    expect(inLocale('de', createElement(Busy))).toContain('Wird geladen');
    expect(inLocale('fr', createElement(PendingBadge, { what: 'vol confirmé' }))).toContain('vol confirmé</span>');
    expect(inLocale('fr', createElement(Pager, { paginate: many, onPage() {}, label: 'Historique' }))).toContain(
      'aria-label="Historique"',
    );
  });
});

describe('audit-trail labels (safety-report trail, pilot account history)', () => {
  it('name a stored field or action code in the reader’s language; an unknown code falls back to what was stored', () => {
    const es = translator('es');
    expect(es('safety-reports.trailField', { field: 'risk_severity', label: 'Risk severity' })).toBe(
      'Gravedad del riesgo',
    );
    expect(es('safety-reports.trailField', { field: 'new_column', label: 'New column' })).toBe('New column');
    expect(es('safety-reports.trailAction', { action: 'submit' })).toBe('Enviado');
    expect(translator('fr')('pilots.historyField', { field: 'preferences_newsletter' })).toBe('Lettre d’information');
    expect(translator('de')('pilots.historyAction', { action: 'edit' })).toBe('Änderung');
    expect(es('pilots.historyField', { field: 'some_field' })).toBe('some_field');
    // English reads as the stored labels did.
    expect(translator('en')('safety-reports.trailField', { field: 'met_conditions', label: 'x' })).toBe(
      'Meteorological conditions',
    );
    expect(translator('en')('pilots.historyAction', { action: 'create' })).toBe('created');
  });

  it('every tracked safety-report field has a name in the catalogue, the English one equal to the stored label', () => {
    for (const [field, def] of Object.entries(TRACKED_FIELDS)) {
      expect(translator('en')('safety-reports.trailField', { field, label: '?' }), field).toBe(def.label);
      expect(translator('fr')('safety-reports.trailField', { field, label: '?' }), field).not.toBe('?');
    }
  });
});
