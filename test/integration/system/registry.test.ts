import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRoleGate } from '@ops/shared';
import { allRoutes } from '@ops/server/areas/index';
import { buildOpenApi, openApiPaths } from '@ops/server/http/openapi';
import { describe, expect, it } from 'vitest';

/** The only routes that may answer without credentials (Part A 5.6, CONTRACT 2). */
const PUBLIC = new Set([
  '/home/version.json',
  '/login.json',
  '/login/verify.json',
  // Designed (docs/areas/company-news-users.md): the person has no password yet; the mailed token is the credential.
  '/users/activate.json',
  '/airports/search.json',
  '/airports/view/:airport{/:date}.json',
  '/airports/view/:airport.json',
  '/airports/view/:airport/:date.json',
  '/airports/night_time/:departure/:arrival/:dTime/:aTime.json',
  '/news.json',
  '/news/news/index{/:base_id}.json',
  '/news/news/index/:base_id.json',
  '/news/news/view/:slug.json',
  // Designed (docs/areas/scheduling.md): calendar apps cannot sign in; the secret, revocable token in the URL is the credential.
  '/schedules/ics/:token.ics',
  // Designed (docs/areas/billing.md): the payment provider cannot sign in; its signature on the body, checked with the company's webhook secret, is the credential.
  '/billing/stripe/:companyId.json',
  // Designed (docs/areas/trainings.md): the per-user class feed, same reasoning.
  '/trainings/calendar/ics/:token.ics',
  // Part A 4.9: sign answers 404 (not 401) when there is no authenticated user; the handler decides.
  '/uploads/sign.json',
  // docs/areas/uploads.md: the local store's signed URL; the HMAC-signed, expiring token is the credential.
  '/files/object/:token',
]);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const testTexts: string[] = [];
const walk = (dir: string) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) walk(full);
    else if (e.name.endsWith('.ts') && !full.endsWith('registry.test.ts'))
      testTexts.push(fs.readFileSync(full, 'utf8'));
  }
};
walk(path.join(root, 'test'));

/** The literal part of a path up to its first parameter, as tests spell it. */
const literal = (p: string) => {
  const cut = p.search(/[:{*]/);
  return cut === -1 ? p : p.slice(0, cut);
};

describe('route registry guard', () => {
  const routes = allRoutes();
  const openapi = buildOpenApi(routes, 'test') as { paths: Record<string, Record<string, unknown>> };

  it('has no duplicate method and path', () => {
    const keys = routes.flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((m) => `${m} ${r.path}`));
    expect(keys.length).toBe(new Set(keys).size);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s declares access, is public only when the spec says so, has an OpenAPI entry and a test',
    (_name, r) => {
      expect(r.access).toBeTypeOf('object');
      if (r.access.public)
        expect(PUBLIC.has(r.path), `${r.path} is public but not in the spec's public list`).toBe(true);
      for (const p of openApiPaths(r.path)) expect(openapi.paths[p], `OpenAPI entry for ${p}`).toBeDefined();
      const prefix = literal(r.path);
      expect(
        testTexts.some((t) => t.includes(prefix)),
        `no test file calls ${prefix}`,
      ).toBe(true);
    },
  );

  it.each(routes.filter((r) => !r.access.public).map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s takes its role gate from roles.ts or its area policy',
    (_name, r) => {
      if (r.access.public) return;
      expect(
        isRoleGate(r.access.who),
        `${r.path}: access.who must be a gate made by roleGate() in shared/src/roles.ts or shared/src/rules/<area>/policy.ts`,
      ).toBe(true);
    },
  );
});

/** Authorization lives in one place: role numbers are compared only in roles.ts and the area policies. */
describe('authorization in one place', () => {
  const ROLE_TEST =
    /\brole\s*(<=|>=|<|>|===|!==)\s*[A-Z0-9]|(<=|>=|<|>)\s*[\w.]*\brole\b|\broles\.includes\(|\broleGate\(/;
  const allowed = (file: string) =>
    file === 'shared/src/roles.ts' ||
    file === 'shared/src/permissions.ts' ||
    /^shared\/src\/rules\/[a-z-]+\/policy\.ts$/.test(file) ||
    file.startsWith('server/src/seed/') ||
    file.endsWith('.seed.ts') ||
    /\.test\.tsx?$/.test(file);
  const files: string[] = [];
  const collect = (dir: string) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) collect(rel);
      else if (/\.tsx?$/.test(e.name) && !allowed(rel)) files.push(rel);
    }
  };
  for (const dir of ['shared/src', 'server/src', 'client-core/src', 'desktop/renderer/src']) collect(dir);

  it.each(files)('%s compares no role numbers (it asks a policy)', (file) => {
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    const found = lines
      .map((l, i) => [i + 1, l] as const)
      .filter(([, l]) => ROLE_TEST.test(l) && !l.trim().startsWith('//') && !l.trim().startsWith('*'));
    expect(found.map(([n, l]) => `${file}:${n}: ${l.trim()}`)).toEqual([]);
  });
});
