import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

// The renderer is one web app: served by the API server at /app/ (field client)
// and loaded from disk by Electron (relative base works for both).
export default defineConfig({
  root: path.join(here, 'renderer'),
  base: './',
  publicDir: path.join(here, 'renderer/public'),
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: path.join(here, 'renderer-dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
});
