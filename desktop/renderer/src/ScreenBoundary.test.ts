import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { messagesOf } from '@ops/shared/i18n/index';
import { IntlProvider } from 'react-intl';
import { ScreenBoundary, ScreenError } from './ScreenBoundary.tsx';

/** What the boundary draws after a screen threw (React calls getDerivedStateFromError, then render). */
function afterThrow(thrown: unknown): string {
  const boundary = new ScreenBoundary({
    label: 'Pilot directory',
    onHome: () => {},
    children: createElement('p', null, 'the screen'),
  });
  boundary.state = ScreenBoundary.getDerivedStateFromError(thrown);
  return renderToStaticMarkup(createElement('div', null, boundary.render()));
}

describe('ScreenBoundary', () => {
  it('draws the screen while nothing failed', () => {
    const boundary = new ScreenBoundary({
      label: 'Pilot directory',
      onHome: () => {},
      children: createElement('p', null, 'the screen'),
    });
    expect(renderToStaticMarkup(createElement('div', null, boundary.render()))).toBe('<div><p>the screen</p></div>');
  });

  it('a screen that threw shows the sentence with Retry and the way home, not a blank', () => {
    const html = afterThrow(new TypeError("Cannot read properties of undefined (reading 'name')"));
    expect(html).toContain('role="alert"');
    expect(html).toContain(
      'This screen could not be shown: Cannot read properties of undefined (reading &#x27;name&#x27;)',
    );
    expect(html).toContain('>Retry<');
    expect(html).toContain('>Go to the home screen<');
    expect(html).not.toContain('the screen</p>');
  });

  it('something thrown that is not an Error still reads as a sentence', () => {
    expect(afterThrow('chunk failed')).toContain('This screen could not be shown: chunk failed');
  });

  it('speaks the app’s language under the language provider', () => {
    const html = renderToStaticMarkup(
      createElement(
        IntlProvider,
        { locale: 'es', messages: messagesOf('es') },
        createElement(ScreenError, { label: 'Directorio de pilotos', message: 'x', onRetry() {}, onHome() {} }),
      ),
    );
    expect(html).toContain('No se ha podido mostrar esta pantalla: x.');
    expect(html).toContain('>Reintentar<');
    expect(html).toContain('>Ir a la pantalla de inicio<');
    expect(html).not.toContain('Retry');
  });
});
