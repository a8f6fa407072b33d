import type { Request } from 'express';

/** One shared empty params object for released requests (nothing writes to it after routing). */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * A long-lived response (a sync stream) keeps its request object alive as long
 * as the connection: Node's HTTP server holds both until the socket closes.
 * What Express, the router and admission left on the request for routing it
 * (the routing chain's continuation and its closures, the parsed URL, params,
 * the matched route, the actor) is not needed once the response head is sent,
 * and was a few kB per idle stream (issue 34). Set to empty values, not
 * deleted: a delete turns the object into a slower, larger dictionary.
 */
export function releaseRequestState(req: Request): void {
  req.next = undefined;
  req.route = undefined;
  req.params = NO_PARAMS;
  req.actor = null;
  (req as { _parsedUrl?: unknown })._parsedUrl = undefined;
}
