import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Express } from 'express';

const require = createRequire(import.meta.url);
/** The Scalar API reference, standalone browser bundle (installed package, never a CDN). */
export const SCALAR_BUNDLE = require.resolve('@scalar/api-reference/browser/standalone.js');

/**
 * The bundle as served: its built-in web fonts point at fonts.scalar.com, and this version
 * requests them before `withDefaultFonts: false` takes effect, so they are rewritten to the
 * local font of the same name (system fonts otherwise). Read once, on first request.
 */
let served: { body: Buffer; etag: string } | undefined;
function bundle(): { body: Buffer; etag: string } {
  if (!served) {
    const text = fs
      .readFileSync(SCALAR_BUNDLE, 'utf8')
      .replace(
        /url\((?:https:)?\/\/fonts\.scalar\.com\/([\w-]+)\.woff2\) format\((?:\\)?["']woff2(?:\\)?["']\)/g,
        (_m, name: string) => (name.startsWith('mono') ? 'local("JetBrains Mono")' : 'local("Inter")'),
      );
    const body = Buffer.from(text);
    served = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  }
  return served;
}

/** The renderer's settings: no web fonts, no telemetry, nothing fetched from elsewhere. */
const INIT = `Scalar.createApiReference('#api-reference', {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: false,
  agent: { disabled: true },
  defaultOpenAllTags: false,
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Operations Platform API reference</title>
</head>
<body>
<noscript>This reference needs JavaScript; the document itself is <a href="/openapi.json">/openapi.json</a>.</noscript>
<div id="api-reference"></div>
<script src="/docs/assets/scalar.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

/** Same-origin only: the page may load its own scripts and the document, and talk to this API. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the API reference at `/docs`: Scalar rendering `/openapi.json`, outside `/api/v1`
 * like the field client at `/app/`. The bundle is revalidated (its name carries no hash).
 */
export function mountApiDocs(app: Express): void {
  app.get('/docs', (req, res, next) => {
    // '/docs' and '/docs/' alike (non-strict routing) answer the page.
    if (!/^\/docs\/?$/.test(req.path)) return next();
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(PAGE);
  });
  app.get('/docs/assets/init.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/javascript').send(INIT);
  });
  app.get('/docs/assets/scalar.js', (req, res) => {
    const { body, etag } = bundle();
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'no-cache');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.type('application/javascript').send(body);
  });
}
