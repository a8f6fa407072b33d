/**
 * True when an error means the database cannot be reached right now (restart, failover, network cut) rather
 * than that the request or the code is wrong: the answer is then 503 with Retry-After, which clients and the
 * load balancer retry, not a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  // PostgreSQL: class 08 connection exceptions, 57P01-57P03 shutdown / crash / cannot connect now, 53300 too many connections.
  if (/^08/.test(code) || /^57P0[1-3]$/.test(code) || code === '53300') return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code))
    return true;
  const message = typeof e.message === 'string' ? e.message : '';
  // node-postgres reports a dropped or unusable connection by message only.
  return /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable|Connection terminated due to connection timeout/i.test(
    message,
  );
}
