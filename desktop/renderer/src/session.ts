/**
 * Where the API is and who signed in last. The last session is kept in
 * localStorage (token, user, expiry, server) so the app reopens that login's
 * local database without a network; the token itself is only checked by the
 * server once it can be reached again.
 */

export interface SessionUser {
  id: string;
  email: string | null;
  user_group_id: number;
  company_id: string;
}

export interface StoredSession {
  /** The API base this session belongs to (a session never follows another server). */
  baseUrl: string;
  token: string;
  /** Unix seconds, as the server answered at sign-in. */
  expires: number;
  user: SessionUser;
}

/** What the Electron preload exposes (desktop/preload/preload.cjs). */
export interface DesktopConfig {
  serverUrl: string;
  platform: string;
  version: string;
}

declare global {
  interface Window {
    opsDesktop?: { config(): Promise<DesktopConfig> };
  }
}

const KEY = 'ops.session.v1';

/** Window event asking the shell to continue as another session (`detail`: the StoredSession), e.g. after a company switch. */
export const SWITCH_EVENT = 'ops:switch-session';

/**
 * The API base: in Electron the configured server, in the browser the server
 * that served the app (the field client lives at /app/, the API at /api/v1/).
 */
export async function resolveApiBase(): Promise<string> {
  if (window.opsDesktop) {
    const config = await window.opsDesktop.config();
    return `${config.serverUrl.replace(/\/+$/, '')}/api/v1`;
  }
  return new URL('../api/v1/', location.href).href.replace(/\/+$/, '');
}

function isSession(v: unknown): v is StoredSession {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Partial<StoredSession>;
  return (
    typeof s.baseUrl === 'string' &&
    typeof s.token === 'string' &&
    typeof s.expires === 'number' &&
    typeof s.user?.id === 'string' &&
    typeof s.user.company_id === 'string'
  );
}

/** The last session for this API base, if any. */
export function loadSession(baseUrl: string): StoredSession | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    return isSession(parsed) && parsed.baseUrl === baseUrl ? parsed : null;
  } catch {
    return null;
  }
}

export function saveSession(s: StoredSession): void {
  localStorage.setItem(KEY, JSON.stringify(s));
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
}
