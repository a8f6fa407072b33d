import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';

export const RENDERER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../desktop/renderer-dist');

/**
 * Serves the desktop renderer as the installable field client at /app/.
 * Hashed assets are immutable; the shell, manifest and service worker are
 * revalidated so a new release reaches devices at their next online start.
 */
export function mountFieldClient(app: Express, dir = RENDERER_DIR): void {
  app.get('/', (_req, res) => res.redirect('/app/'));
  // Express matches '/app' and '/app/' alike (non-strict routing): redirect only the bare one.
  app.get('/app', (req, res, next) => (req.originalUrl.split('?')[0] === '/app' ? res.redirect('/app/') : next()));
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    app.get('/app/', (_req, res) => {
      res.status(503).type('text/plain').send('The field client is not built: run `npm run build -w @ops/desktop`.');
    });
    return;
  }
  app.use(
    '/app/assets',
    express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }),
  );
  app.use(
    '/app',
    express.static(dir, {
      index: 'index.html',
      setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
    }),
  );
}
