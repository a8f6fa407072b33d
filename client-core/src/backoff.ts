/** Exponential back-off with jitter for reconnects: 0.5 s doubling up to 30 s. */
export function backoffDelay(attempt: number, random: () => number = Math.random, base = 500, cap = 30_000): number {
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, attempt));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** The longest `Retry-After` honoured (a misconfigured proxy must not park a device for hours). */
const RETRY_AFTER_CAP_MS = 120_000;

/** A `Retry-After` header (seconds or an HTTP date) in milliseconds, or null. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | null {
  if (!header) return null;
  const text = header.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  return Number.isFinite(ms) ? Math.min(RETRY_AFTER_CAP_MS, Math.max(0, ms)) : null;
}

/**
 * The wait before trying again: the back-off, or the server's Retry-After when it asks for longer, spread by
 * up to half of it again so a refused herd does not come back in the same second (issue 34).
 */
export function retryDelay(
  attempt: number,
  retryAfter: number | null,
  random: () => number = Math.random,
  base = 500,
  cap = 30_000,
): number {
  const backoff = backoffDelay(attempt, random, base, cap);
  if (retryAfter === null) return backoff;
  return Math.max(backoff, Math.round(retryAfter * (1 + random() / 2)));
}

/**
 * Where in `spreadMs` a client opens its first live stream: spread at random, so thousands of devices started
 * together (a site's power coming back, a deploy) do not all arrive in the same instant.
 */
export function firstConnectDelay(spreadMs: number, random: () => number = Math.random): number {
  return Math.round(Math.max(0, spreadMs) * random());
}
