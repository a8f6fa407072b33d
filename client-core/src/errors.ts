/** The server refused the credentials and refreshing them failed: the person must sign in again. */
export class AuthError extends Error {}
/** The server answered 410: the checkpoint is older than its tombstones; start that collection over. */
export class ResetRequired extends Error {}
/** No answer from the server (network down, hangar Wi-Fi without a route, server stopped). */
export class OfflineError extends Error {}
/** The server answered with an error status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}
