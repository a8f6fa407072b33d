import { BehaviorSubject, type Observable } from 'rxjs';
import type { SyncProblemKind } from './errors.ts';

export interface SyncState {
  /** The server answered the last request, or the live stream is open (a network alone is not enough). */
  online: boolean;
  /** Local changes the server has not acknowledged yet (see PendingWrites). */
  pendingWrites: number;
  /** Commands still waiting for the server's decision (status `pending`). */
  pendingCommands: number;
  /** Last time the server answered a pull, a push or a stream event (unix ms). */
  lastSyncAt: number | null;
  /** The last failure, its technical message (logs, a tooltip); cleared when the server answers again. */
  lastError: string | null;
  /** The same failure as the app says it: where (a collection, `stream`, `bootstrap`, `prune`) and what kind. */
  problem: SyncProblem | null;
  /** Credentials were refused and refreshing failed: ask the person to sign in (local writes stay queued). */
  needsSignIn: boolean;
  /**
   * First sync of this device, per collection that had never loaded here
   * (empty when every collection was loaded before): the sync bar shows it.
   */
  firstSync: Readonly<Record<string, CollectionProgress>>;
}

export interface SyncProblem {
  source: string;
  kind: SyncProblemKind;
}

/** One collection's first sync: waiting its turn, loading (documents stored so far), or ready (stored; replicating live). */
export interface CollectionProgress {
  phase: 'waiting' | 'loading' | 'ready';
  documents: number;
  /** Documents the whole load brings, as the server counted them (absent from an older server): progress as a share. */
  total?: number;
  /** Unix ms. */
  startedAt?: number;
  finishedAt?: number;
}

/** An observable of the state that also holds the current value (`syncState$.value`). */
export type SyncStateObservable = Observable<SyncState> & { readonly value: SyncState };

export const initialSyncState = (): SyncState => ({
  online: false,
  pendingWrites: 0,
  pendingCommands: 0,
  lastSyncAt: null,
  lastError: null,
  problem: null,
  needsSignIn: false,
  firstSync: {},
});

export class SyncStateStore {
  private readonly subject = new BehaviorSubject<SyncState>(initialSyncState());
  readonly state$: SyncStateObservable = this.subject;

  get value(): SyncState {
    return this.subject.value;
  }

  /** Applies a change; emits only when something differs. */
  patch(p: Partial<SyncState>): void {
    const cur = this.subject.value;
    if ((Object.keys(p) as (keyof SyncState)[]).every((k) => cur[k] === p[k])) return;
    this.subject.next({ ...cur, ...p });
  }

  complete(): void {
    this.subject.complete();
  }
}
