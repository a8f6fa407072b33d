import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { PermissionKey, Plan, RoleGate } from '@ops/shared';
import type { AppContext } from '../context.ts';
import type { Actor } from './actor.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route. Declared on the route, checked before the handler runs:
 * - `public`: no credentials needed (an actor is still resolved when a valid token is sent).
 * - otherwise a valid session or API key is required, then each gate in turn.
 */
export type Access =
  | { public: true }
  | {
      public?: false;
      /** Who may call: a named gate from `roles.ts` (GATES) or the area's `rules/<area>/policy.ts`. */
      who: RoleGate;
      /** Company plan in this list. */
      plans?: readonly Plan[];
      /** Company permission key the caller's role must hold. */
      permission?: PermissionKey;
      /** Refuse API keys (interactive session only), e.g. `/manager/api_keys*`. */
      sessionOnly?: boolean;
      /** Status for a failed role gate: 403 by default; some spec routes answer 404. */
      deny?: 403 | 404;
      /** Also accept the credential as the `token` query parameter (file downloads opened by a browser, Part B 4.4 item 3). */
      queryToken?: boolean;
    };

/** Media types a request body may be documented with. */
export type BodyMedia =
  | 'application/json'
  | 'application/x-www-form-urlencoded'
  | 'multipart/form-data'
  | 'application/octet-stream';

type Infer<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;
/** What a handler may return: the declared 200 body (checked at compile time), a `Reply`, or nothing when it wrote the answer. */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers that write the answer themselves are typed `Promise<void>`.
type Answer<R> = R extends z.ZodType ? z.input<R> | Reply | undefined | void : unknown;

/** A response header the spec names (paging totals, `Cache-Control`). */
export interface HeaderDoc {
  description: string;
  /** JSON type of the value (`integer` for counts). */
  type?: 'string' | 'integer';
}
type ActorFor<A extends Access> = A extends { public: true } ? Actor | null : Actor;

export interface HandlerArgs<A extends Access, P, Q, B> {
  actor: ActorFor<A>;
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  ctx: AppContext;
  req: Request;
  res: Response;
}

export interface RouteDef<
  A extends Access = Access,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: Method | readonly Method[];
  /** Express 5 path below the base URL, e.g. `/aircraft/view/:id.json`. */
  path: string;
  summary: string;
  /** Functional area (OpenAPI tag, coverage report). */
  area: string;
  access: A;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Documentation only: the body's fields for /openapi.json when the handler reads them itself
   * (multipart uploads, raw bytes, fields read by hand) and a validating `body` would change its answers.
   */
  bodyDoc?: z.ZodType;
  /**
   * The filters of a `{/*named}` route (`/flights/load/status:LANDED/page:2.json`): documented as query
   * parameters of the path without the segment, which the router also accepts (`/flights/load.json?status=LANDED&page=2`).
   */
  named?: z.ZodType;
  /** Media types of the documented body (`body` or `bodyDoc`); JSON and form-encoded by default. */
  bodyMedia?: readonly BodyMedia[];
  /** The write reads no request body (an action on the path's id): documented as taking none. */
  noBody?: true;
  /** Key of the field errors in a 400 (`errors` by default, `validation` on some spec routes). */
  validationKey?: 'errors' | 'validation';
  /** Answer other methods on this path with this status instead of a 404 (spec: 400 or 405). */
  otherMethods?: 400 | 405;
  /**
   * Schema of the JSON body of a 200, documented in /openapi.json and checked by the contract test
   * (test/setup/contract.ts). The handler's return type is checked against it, so the two cannot drift.
   */
  response?: R;
  /** Bodies of other statuses a handler answers with `reply()` (e.g. 201, 202, 409). */
  responses?: Readonly<Partial<Record<number, z.ZodType>>>;
  /** The 200 is a file the handler writes (PDF, spreadsheet, calendar...): its media type(s). */
  file?: { mediaType: string | readonly string[] };
  /** Answers a 302 redirect to the resource (`Location` header); no body is documented. */
  redirect?: boolean;
  /** Headers the spec names on the 200 (paging totals, `Cache-Control`). */
  headers?: Readonly<Record<string, HeaderDoc>>;
  /**
   * Returns the JSON body (200), a `Reply` for another status, or `undefined`
   * when it wrote the response itself (files, streams).
   */
  handler: (args: HandlerArgs<A, P, Q, B>) => Promise<Answer<R>> | Answer<R>;
}

export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
export const reply = (status: number, body: unknown) => new Reply(status, body);

/** Identity function that fixes the generic parameters: the one recipe for an endpoint. */
export function defineRoute<
  A extends Access,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(def: RouteDef<A, P, Q, B, R>): RouteDef {
  return def as unknown as RouteDef;
}
