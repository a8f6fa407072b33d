/**
 * The typed API client of the tests: openapi-fetch over the types generated from the server's
 * OpenAPI document (`schema.d.ts`, `npm run api:types`). A path, path parameter, query or request
 * body that the document does not declare is a type error, so a route change shows at `tsc`.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export type ApiPaths = paths;
export type ApiClient = Client<paths>;

/** A client of `<baseUrl>/api/v1` acting with `token` (a session token or an `svc_` key), if any. */
export function apiClient(baseUrl: string, token?: string): ApiClient {
  return createClient<paths>({
    baseUrl: `${baseUrl}/api/v1`,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

/** A JSON answer the document does not describe yet (until every operation declares its response schema). */
export type Undescribed = Record<string, any>;

/**
 * The parsed body of an answer, success or error: typed as the document declares it, loosely
 * where the operation declares no response content yet.
 */
export function answer<D, E>(r: {
  data?: D;
  error?: E;
}): [Exclude<D, undefined>] extends [never] ? Undescribed : Exclude<D, undefined> {
  return (r.data ?? r.error) as never;
}
