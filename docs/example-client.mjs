#!/usr/bin/env node
/**
 * An integration that knows nothing but the OpenAPI document: it reads `/openapi.json`, finds
 * operations by their `operationId`, fills path parameters, sends query parameters one by one as
 * the document names them and JSON bodies, as any generated client would. No other knowledge of the API.
 *
 *   OPS=http://127.0.0.1:3000 OPS_EMAIL=admin@skyline.test OPS_PASSWORD=… node docs/example-client.mjs
 *
 * A typed client from the same document: `npx openapi-typescript $OPS/openapi.json -o api.d.ts`, then
 * `createClient<paths>({ baseUrl: `${OPS}/api/v1` })` from openapi-fetch (as test/api/client.ts does).
 */
const base = process.env.OPS ?? 'http://127.0.0.1:3000';
const doc = await (await fetch(`${base}/openapi.json`)).json();
const api = new URL(doc.servers[0].url, base).href.replace(/\/$/, '');

/** operationId → { method, path, parameters } from the document. */
const operations = new Map();
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(item))
    operations.set(op.operationId, { method: method.toUpperCase(), path, parameters: op.parameters ?? [] });
}

let token = null;
/** Calls an operation by id with `{ path, query, body }` as its parameters are documented. */
async function call(operationId, { path = {}, query = {}, body } = {}) {
  const op = operations.get(operationId);
  if (!op) throw new Error(`no operation ${operationId} in the document`);
  const url = new URL(api + op.path.replace(/\{(\w+)\}/g, (_m, name) => encodeURIComponent(String(path[name]))));
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    if (query[p.name] !== undefined) url.searchParams.set(p.name, String(query[p.name]));
    else if (p.required) throw new Error(`${operationId} needs the query parameter ${p.name}`);
  }
  const res = await fetch(url, {
    method: op.method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (res.headers.get('content-type') ?? '').includes('json') ? await res.json() : null;
  return { status: res.status, headers: res.headers, json };
}

console.log(`${doc.info.title} ${doc.info.version}: ${operations.size} operations`);
const login = await call('postLogin', {
  body: { email: process.env.OPS_EMAIL ?? 'admin@skyline.test', password: process.env.OPS_PASSWORD ?? '' },
});
if (login.status !== 200 || !login.json.token)
  throw new Error(`sign-in failed: ${login.status} ${JSON.stringify(login.json)}`);
token = login.json.token;

// Paging: the users list, two per page, totals in the headers.
const page = await call('getManagerUsers', { query: { page: 1, limit: 2 } });
console.log(`users page 1: ${page.json.length} of ${page.headers.get('X-Total-Posts')}`);

// Filters: landed flights, as query parameters of the plain path.
const flights = await call('getFlightsLoad', { query: { status: 'LANDED', limit: 5 } });
console.log(`landed flights on page 1: ${flights.json.flights?.length}`);

// A write: a webhook endpoint, read back, then removed.
const added = await call('postWebhooksAdd', {
  body: { url: 'https://example.test/hook', events: ['flight.canceled'] },
});
console.log(`webhook added: ${added.status}`);
const viewed = await call('getWebhooksViewById', { path: { id: added.json.id } });
console.log(`webhook read back: ${viewed.json.endpoint?.url}`);
await call('postWebhooksDeleteById', { path: { id: added.json.id } });
