import { BehaviorSubject } from 'rxjs';

export interface SyncState {
  /** The server answered the last request or the live stream is open. */
  online: boolean;
  /** Local changes not yet acknowledged by the server. */
  pendingWrites: number;
  /** Commands still waiting for the server's decision. */
  pendingCommands: number;
  lastSyncAt: number | null;
  lastError: string | null;
  /** Credentials were refused and refreshing failed: ask the person to sign in. */
  needsSignIn: boolean;
}

export const initialSyncState = (): SyncState => ({
  online: false,
  pendingWrites: 0,
  pendingCommands: 0,
  lastSyncAt: null,
  lastError: null,
  needsSignIn: false,
});

export class SyncStateStore {
  readonly state$ = new BehaviorSubject<SyncState>(initialSyncState());

  patch(p: Partial<SyncState>): void {
    const cur = this.state$.value;
    if (Object.entries(p).every(([k, v]) => cur[k as keyof SyncState] === v)) return;
    this.state$.next({ ...cur, ...p });
  }
}
