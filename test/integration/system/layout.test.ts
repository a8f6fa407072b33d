import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * One house (docs/architecture.md, "File pattern"): the same area names everywhere and
 * one set of file kinds in every server area. A file that does not fit fails here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const AREAS = [
  'accounts',
  'aircraft',
  'aircraft-reports',
  'airports',
  'bases',
  'billing',
  'certificates',
  'company',
  'duty',
  'flight-types',
  'flights',
  'inventory',
  'maintenance-jobs',
  'maintenance-plans',
  'news',
  'notifications',
  'pilot-groups',
  'pilots',
  'profile',
  'readiness',
  'reports',
  'safety-reports',
  'schedules',
  'system',
  'trainings',
  'uploads',
  'users',
  'webhooks',
];
/** What a server area file may be: `<subject>.<kind>.ts`. */
export const KINDS = [
  'routes',
  'schema',
  'service',
  'repository',
  'presenter',
  'responses',
  'tables',
  'sync',
  'commands',
  'seed',
  'webhooks',
  'notify',
  'jobs',
  'export',
  'alerts',
  // The area's manifest (`<area>.area.ts`): what it registers, listed in server/src/areas/index.ts.
  'area',
];
/** Test folders that are not areas: the machinery every area shares. */
const TEST_INFRA = ['sync', 'system', 'jobs', 'mail', 'ops', 'i18n'];
/** The renderer's shell: everything else is a screen or view logic in `areas/<area>/`. */
const RENDERER_SHELL = [
  'App.tsx',
  'Shell.tsx',
  'SignIn.tsx',
  'SyncBar.tsx',
  'SyncBar.test.ts',
  'ScreenBoundary.tsx',
  'ScreenBoundary.test.ts',
  'main.tsx',
  'nav.ts',
  'nav.test.ts',
  'hooks.ts',
  'session.ts',
  'ui.tsx',
  'ui.test.ts',
  'format.ts',
  'format.test.ts',
  'perf.ts',
  'workspace.ts',
  'styles.css',
  // Generic sync UI: what waits for the server and what it refused (every area's commands).
  'Changes.tsx',
  'decisions.ts',
  'decisions.test.ts',
  'refusals.ts',
  'refusals.test.ts',
  // What the current screen still waits for in the first sync (every screen's `useDocs`).
  'ScreenLoading.tsx',
  // Languages: the IntlProvider and the app's locale.
  'i18n.tsx',
];

const dirs = (rel: string) =>
  fs
    .readdirSync(path.join(root, rel), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
const entries = (rel: string) => fs.readdirSync(path.join(root, rel), { withFileTypes: true });
const FILE = new RegExp(`^[a-z0-9]+(-[a-z0-9]+)*\\.(${KINDS.join('|')})\\.ts$`);

describe('file layout', () => {
  it.each(['server/src/areas', 'shared/src/rules', 'desktop/renderer/src/areas'])(
    '%s has one folder per area, named as the areas',
    (rel) => {
      expect(dirs(rel).filter((d) => !AREAS.includes(d))).toEqual([]);
    },
  );

  it('test/integration has one folder per area (and the shared machinery)', () => {
    expect(dirs('test/integration').filter((d) => !AREAS.includes(d) && !TEST_INFRA.includes(d))).toEqual([]);
  });

  const serverFiles: string[] = [];
  for (const area of dirs('server/src/areas')) {
    for (const e of entries(`server/src/areas/${area}`)) {
      if (e.isDirectory())
        for (const f of entries(`server/src/areas/${area}/${e.name}`)) serverFiles.push(`${area}/${e.name}/${f.name}`);
      else serverFiles.push(`${area}/${e.name}`);
    }
  }
  it.each(serverFiles)('server/src/areas/%s is <subject>.<kind>.ts', (file) => {
    expect(FILE.test(path.basename(file)), `${file}: kinds are ${KINDS.join(', ')}`).toBe(true);
    expect(file.split('/').length, `${file}: at most one sub-area folder`).toBeLessThanOrEqual(3);
  });

  it('server/src/areas holds only area folders and the registry', () => {
    expect(
      entries('server/src/areas')
        .filter((e) => e.isFile())
        .map((e) => e.name),
    ).toEqual(['index.ts']);
  });

  it('the renderer keeps only its shell at the top; screens live in areas/<area>/', () => {
    const top = entries('desktop/renderer/src').filter((e) => !(e.isDirectory() && e.name === 'areas'));
    expect(top.map((e) => e.name).filter((n) => !RENDERER_SHELL.includes(n))).toEqual([]);
  });
});
