import { allRoutes } from '@ops/server/areas/index';
import type { ObservedResponse } from '@ops/server/http/observe';
import { buildOpenApi, documentsResponse, openApiPaths } from '@ops/server/http/openapi';
import { methodsOf } from '@ops/server/http/router';
import { describe, expect, it } from 'vitest';
import { contractChecker } from '../../setup/contract.ts';

/**
 * The contract machinery itself (test/setup/contract.ts): every operation documents its answer,
 * and the checker the test servers run refuses bodies that break the declared schema. The check
 * of the suite's real responses happens in the global teardown (test/setup/contract-global.ts).
 */
const routes = allRoutes();
const doc = buildOpenApi(routes, '0.0.0') as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};
const check = contractChecker();

const seen = (r: Partial<ObservedResponse>): ObservedResponse => ({
  dialect: 'sqlite',
  method: 'GET',
  pattern: '/home/version.json',
  path: '/api/v1/home/version.json',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  location: null,
  body: { version: '1.0.0', api: 'v1' },
  ...r,
});

describe('API contract', () => {
  it('every operation declares its answer (JSON schema, file or redirect)', () => {
    const without = routes
      .filter((r) => !documentsResponse(r))
      .flatMap((r) => methodsOf(r).map((m) => `${m} ${r.path}`));
    expect(without).toEqual([]);
    let operations = 0;
    for (const item of Object.values(doc.paths)) operations += Object.keys(item).length;
    expect(operations).toBeGreaterThan(200);
  });

  it('every write declares its request body, or that it takes none (issue 23 item 1)', () => {
    const ops = doc.paths as Record<
      string,
      Record<string, { requestBody?: { content: Record<string, unknown> }; 'x-request-body'?: string }>
    >;
    const undocumented: string[] = [];
    for (const [p, item] of Object.entries(ops)) {
      for (const [m, op] of Object.entries(item)) {
        if (m === 'get') {
          expect(op.requestBody, `GET ${p}`).toBeUndefined();
          continue;
        }
        // Exactly one of the two: a body, or the explicit "none".
        if (!!op.requestBody === (op['x-request-body'] === 'none')) undocumented.push(`${m.toUpperCase()} ${p}`);
      }
    }
    expect(undocumented).toEqual([]);
    // A route marked as taking no body declares no schema for one either.
    expect(routes.filter((r) => r.noBody && (r.body || r.bodyDoc)).map((r) => r.path)).toEqual([]);
    // JSON and form-encoded by default; the multipart upload and the raw PUT name their own media type.
    expect(Object.keys(ops['/manager/aircraft/add.json'].post.requestBody?.content ?? {})).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    expect(Object.keys(ops['/uploads/create.json'].post.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    expect(Object.keys(ops['/files/object/{token}'].put.requestBody?.content ?? {})).toEqual([
      'application/octet-stream',
    ]);
    expect(ops['/logout.json'].post['x-request-body']).toBe('none');
  });

  it('documents the error envelope on every operation', () => {
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(item)) {
        expect(op.responses[400], `${m} ${p}`).toEqual({ $ref: '#/components/responses/ValidationFailed' });
        expect(op.responses.default, `${m} ${p}`).toEqual({ $ref: '#/components/responses/Error' });
      }
    }
  });

  it('accepts a body that follows the schema', () => {
    expect(check(seen({})).outcome).toBe('validated');
    expect(check(seen({ status: 404, body: { result: false, message: 'Not found' } })).outcome).toBe('validated');
    expect(
      check(
        seen({
          pattern: null,
          path: '/api/v1/nowhere.json',
          status: 404,
          body: { result: false, message: 'No route' },
        }),
      ).outcome,
    ).toBe('validated');
  });

  it('fails an undocumented field, a wrong type, a missing field and an undeclared media type', () => {
    const extra = check(seen({ body: { version: '1.0.0', api: 'v1', secret: 'x' } }));
    expect(extra.outcome).toBe('violation');
    expect(extra.message).toContain('secret');
    expect(check(seen({ body: { version: 1, api: 'v1' } })).outcome).toBe('violation');
    expect(check(seen({ body: { version: '1.0.0' } })).outcome).toBe('violation');
    expect(check(seen({ contentType: 'text/html', body: undefined })).outcome).toBe('violation');
    expect(check(seen({ status: 400, body: { result: false, message: 'x', errors: { a: 5 } } })).outcome).toBe(
      'violation',
    );
    expect(check(seen({ status: 403, body: { result: true } })).outcome).toBe('violation');
  });

  it('checks redirects for a Location and file answers for their media type', () => {
    const download = routes.find((r) => r.path === '/uploads/download/:id.json')!;
    const pattern = download.path;
    expect(
      check(seen({ pattern, status: 302, contentType: null, body: undefined, location: 'http://x/y' })).outcome,
    ).toBe('validated');
    expect(check(seen({ pattern, status: 302, contentType: null, body: undefined })).outcome).toBe('violation');
    const pdf = '/safety_reports/view/:id/:flag';
    expect(openApiPaths(pdf)).toHaveLength(1);
    expect(check(seen({ pattern: pdf, contentType: 'application/pdf', body: undefined })).outcome).toBe('validated');
    expect(check(seen({ pattern: pdf, contentType: 'application/json', body: { result: true } })).outcome).toBe(
      'violation',
    );
  });
});
