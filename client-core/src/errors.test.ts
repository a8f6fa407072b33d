import { describe, expect, it } from 'vitest';
import { AuthError, HttpError, OfflineError, problemOf, problemOfStatus } from './errors.ts';

/** RxDB hands a handler's error on as plain JSON inside its own error (`parameters.errors`). */
const viaRxdb = (e: Error) => ({ code: 'RC_PULL', parameters: { errors: [{ name: e.name, message: e.message }] } });

describe('what a sync failure means for the person', () => {
  it('tells the kinds apart, from the error itself or its copy inside an RxDB error', () => {
    const cases: Array<[Error, string]> = [
      [new OfflineError('Failed to fetch'), 'offline'],
      [new AuthError('refresh refused'), 'signIn'],
      [new HttpError(503, { message: 'busy' }, 2000), 'busy'],
      [new HttpError(429, {}), 'busy'],
      [new HttpError(500, { message: 'boom' }), 'server'],
      [new HttpError(401, {}), 'signIn'],
      [new HttpError(403, { message: 'Not authorized' }), 'refused'],
      [new SyntaxError('Unexpected end of JSON input'), 'server'],
      [new Error('QuotaExceededError'), 'device'],
    ];
    for (const [e, kind] of cases) {
      expect(problemOf(e), e.message).toBe(kind);
      expect(problemOf(viaRxdb(e)), `${e.message} via RxDB`).toBe(kind);
    }
  });
  it('reads a status the live stream sent in its error event', () => {
    expect(problemOfStatus(401)).toBe('signIn');
    expect(problemOfStatus(503)).toBe('busy');
    expect(problemOfStatus(409)).toBe('refused');
    expect(problemOfStatus(undefined)).toBe('server');
  });
});
