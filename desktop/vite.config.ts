import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Emits sw.js with the list of every built file and a cache name derived from
 * it. The service worker precaches them all at install, so screens loaded
 * lazily also open offline even if they were never visited online, and a new
 * release (new hashes) gets a new cache.
 */
function serviceWorker(): Plugin {
  return {
    name: 'ops-service-worker',
    apply: 'build',
    // After Vite's own hooks: its CSS plugin deletes CSS-only JS chunks in generateBundle, so list what is really written.
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((f) => !f.endsWith('.map'))
        .sort();
      const publicFiles = fs.readdirSync(path.join(here, 'renderer/public')).sort();
      // index.html is emitted after this hook runs, so it is named here. Not './': the
      // navigation fallback serves index.html for it, whatever the server answers there.
      const precache = [...new Set(['index.html', ...files, ...publicFiles])]
        .filter((f) => f !== 'sw.js')
        .map((f) => `./${f}`);
      const version = createHash('sha256').update(precache.join('\n')).digest('hex').slice(0, 12);
      const template = fs.readFileSync(path.join(here, 'renderer/sw.js'), 'utf8');
      const source = template.replace('__PRECACHE__', JSON.stringify(precache)).replace('__VERSION__', version);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

// The renderer is one web app: served by the API server at /app/ (field client)
// and loaded by Electron (relative base works for both).
export default defineConfig(({ command }) => ({
  root: path.join(here, 'renderer'),
  base: './',
  publicDir: path.join(here, 'renderer/public'),
  // A build is always a production build, whatever NODE_ENV the caller runs with (vitest sets `test`).
  esbuild: { jsx: 'automatic', jsxDev: command !== 'build' },
  plugins: [serviceWorker()],
  build: {
    outDir: path.join(here, 'renderer-dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
  // `npm run dev -w @ops/desktop`: the renderer at http://localhost:5173/ talking to a local API server.
  server: { proxy: { '/api': process.env.OPS_SERVER_URL ?? 'http://127.0.0.1:3000' } },
  define: { 'process.env.NODE_ENV': JSON.stringify(command === 'build' ? 'production' : 'development') },
}));
