import { createPgSchema, PG_URL } from '../../setup/dialects.ts';
import { openStream, pullAll, push } from '../../setup/sync.ts';
import { checkpointPostgres, ensurePostgresRunning, restartPostgres } from './pg-cluster.ts';
import { startPgRelay } from './pg-relay.ts';
import { buildServer, type ProdProcess, startProd } from './prod-process.ts';

/**
 * PostgreSQL restarted under live writes through two server processes
 * (issue 34 item 1): the CI test (pg-restart.test.ts) and `npm run
 * chaos:postgres` run this with different sizes.
 *
 * Each process has its own writer (one aircraft each, registration set to a
 * numbered marker, sequentially, as fast as answers come) and `streams` live
 * streams per process. Each cycle: one process writes (alternating), PostgreSQL
 * is restarted, the writer goes on until its first acknowledged write that
 * started after the restart and then pauses, so its last change is likely
 * committed while the other process's listener is still reconnecting (backoff):
 * only the re-read after the listener is back delivers it to the other
 * process's streams. Then both write for a while. Every stream must show
 * exactly the database's final value of both aircraft ("missed" otherwise),
 * markers on a stream never go back, and more writes after recovery must
 * answer no 5xx. Readiness is polled throughout: 503 while down, 200 after.
 */
export interface PgRestartOptions {
  restarts: number;
  streamsPerProcess: number;
  /** Writing before each restart and after each recovery, ms. */
  writeMs: number;
  /**
   * restart: `pg_ctlcluster restart` (the real thing; everyone using this PostgreSQL notices). relay: the processes
   * reach PostgreSQL through a TCP relay that is cut for `relayDownMs` (development runs that disturb no one).
   */
  fault?: 'restart' | 'relay';
  relayDownMs?: number;
  log?: (line: string) => void;
}

export interface PgRestartResult {
  acked: number;
  failedDuringOutage: number;
  statusesDuringOutage: Record<string, number>;
  fiveXxAfterRecovery: number;
  /** stream → aircraft whose final value it did not show. */
  missed: string[];
  /** Acknowledged markers the database does not hold a later value than (lost writes). */
  lost: string[];
  regressions: string[];
  streamsEnded: number;
  /** Per process: saw a 503 from /health/ready after the restart began, and answered 200 at the end. */
  readiness: Array<{ saw503: boolean; ready: boolean }>;
  /** Per restart: restart command start → both processes ready (ms), and → every stream converged (ms). */
  recoverMs: number[];
  /** Per restart: PostgreSQL accepting connections again → both processes ready (ms): the servers' own share. */
  recoverAfterDbMs: number[];
  convergeMs: number[];
  restartCommandMs: number[];
  listenerReconnects: number[];
}

async function cutRelay(relay: { cut(): void; restore(): void }, ms: number): Promise<number> {
  relay.cut();
  await sleep(ms);
  relay.restore();
  return ms;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seqOf = (registration: unknown) => {
  const m = /^PG[AB]-(\d+)$/.exec(String(registration ?? ''));
  return m ? Number(m[1]) : -1;
};

export async function runPgRestartScenario(o: PgRestartOptions): Promise<PgRestartResult> {
  const log = o.log ?? (() => {});
  buildServer();
  const schema = await createPgSchema();
  const relay = o.fault === 'relay' ? await startPgRelay() : null;
  const env = { DATABASE_URL: relay?.url ?? PG_URL, DATABASE_SCHEMA: schema.schema, JOBS: 'off' };
  const procs: ProdProcess[] = [];
  const result: PgRestartResult = {
    acked: 0,
    failedDuringOutage: 0,
    statusesDuringOutage: {},
    fiveXxAfterRecovery: 0,
    missed: [],
    lost: [],
    regressions: [],
    streamsEnded: 0,
    readiness: [],
    recoverMs: [],
    recoverAfterDbMs: [],
    convergeMs: [],
    restartCommandMs: [],
    listenerReconnects: [],
  };
  const streams: Array<Awaited<ReturnType<typeof openStream>> & { name: string }> = [];
  let polling = true;
  const pollers: Promise<void>[] = [];
  try {
    procs.push(await startProd({ ...env, SEED: 'fixtures' }));
    procs.push(await startProd({ ...env, SEED: 'none' }));
    for (const [i, p] of procs.entries()) {
      let tail = '';
      p.child.stderr?.on('data', (d: Buffer) => {
        tail = (tail + d.toString()).slice(-4000);
      });
      p.child.stdout?.on('data', (d: Buffer) => {
        tail = (tail + d.toString()).slice(-4000);
      });
      p.child.once('exit', (code, signal) => {
        if (polling) log(`process ${i} exited (${code ?? signal}) during the scenario: ${tail}`);
      });
    }
    const [a, b] = procs as [ProdProcess, ProdProcess];
    const { token } = await a.login('mechanic@skyline.test');
    const fleet = (await pullAll(a, token, 'aircraft')).docs;
    if (fleet.length < 2) throw new Error('the fixtures need two aircraft');
    const writers = [
      { tag: 'A', via: a, id: fleet[0].id as string },
      { tag: 'B', via: b, id: fleet[1].id as string },
    ].map((w) => {
      const { _deleted, ...master } = fleet.find((d) => d.id === w.id);
      return { ...w, master: master as Record<string, unknown>, seq: 0, lastAcked: -1 };
    });

    for (const [i, p] of procs.entries()) {
      for (let k = 0; k < o.streamsPerProcess; k++) {
        const s = await openStream(p.baseUrl, token, ['fleet']);
        if (s.status !== 200) throw new Error(`stream on process ${i}: ${s.status}`);
        streams.push(Object.assign(s, { name: `process ${i} stream ${k}` }));
      }
    }
    for (const s of streams) await s.waitFor((e) => e.some((x) => x.event === 'resync'));

    // Readiness timeline per process.
    const timeline: Array<Array<{ at: number; status: number }>> = procs.map(() => []);
    for (const [i, p] of procs.entries()) {
      pollers.push(
        (async () => {
          while (polling) {
            const status = await fetch(`${p.url}/health/ready`, { signal: AbortSignal.timeout(5000) }).then(
              (r) => r.status,
              () => 0,
            );
            timeline[i]?.push({ at: performance.now(), status });
            await sleep(25);
          }
        })(),
      );
    }

    // What a stream shows for an aircraft: the last value it delivered; checked for going back.
    const shown = (s: (typeof streams)[number], id: string) => {
      let last: number | null = null;
      for (const e of s.events)
        if (e.event === 'change')
          for (const d of e.data.documents as Array<Record<string, unknown>>)
            if (d.id === id) last = seqOf(d.registration);
      return last;
    };

    let phase: 'before' | 'outage' | 'after' = 'before';
    let restartDoneAt = Number.POSITIVE_INFINITY;
    const writeOnce = async (w: (typeof writers)[number]): Promise<{ status: number; ok: boolean }> => {
      const marker = `PG${w.tag}-${++w.seq}`;
      const next = { ...w.master, registration: marker };
      try {
        const r = await push(w.via, token, 'aircraft', [{ assumedMasterState: w.master, newDocumentState: next }]);
        if (r.status === 200 && Array.isArray(r.body?.conflicts)) {
          if (r.body.conflicts.length === 0) {
            w.master = next;
            w.lastAcked = w.seq;
            result.acked++;
            return { status: 200, ok: true };
          }
          // A write whose answer was lost may have committed: continue from the server's state.
          const { _deleted, ...master } = r.body.conflicts[0];
          w.master = master;
          w.seq = Math.max(w.seq, seqOf(master.registration));
        }
        return { status: r.status, ok: false };
      } catch {
        return { status: 0, ok: false };
      }
    };
    const tally = (status: number) => {
      if (phase === 'after' && status >= 500) result.fiveXxAfterRecovery++;
      if (phase === 'outage' && status !== 200) {
        result.failedDuringOutage++;
        result.statusesDuringOutage[status] = (result.statusesDuringOutage[status] ?? 0) + 1;
      }
    };
    /** Writes until `until` says stop; bounded by `limitMs` and 100,000 writes. */
    const writeLoop = (
      who: typeof writers,
      until: (w: (typeof writers)[number], last: { at: number; ok: boolean }) => boolean,
      limitMs: number,
    ) =>
      Promise.all(
        who.map(async (w) => {
          const t0 = performance.now();
          for (let n = 0; n < 100_000 && performance.now() - t0 < limitMs; n++) {
            const at = performance.now();
            const r = await writeOnce(w);
            tally(r.status);
            if (until(w, { at, ok: r.ok })) return;
            if (!r.ok) await sleep(20);
          }
        }),
      );

    const converged = () =>
      streams.every((s) => writers.every((w) => (shown(s, w.id) ?? -1) === seqOf(w.master.registration)));

    const waitConverged = async (limitMs: number) => {
      const t0 = performance.now();
      while (!converged() && performance.now() - t0 < limitMs) await sleep(20);
      return converged();
    };

    for (let cycle = 0; cycle < o.restarts; cycle++) {
      if (!relay) await checkpointPostgres();
      phase = 'before';
      const stopBefore = performance.now() + o.writeMs;
      // One process writes through the restart (alternating per cycle): the other's streams have no write of their
      // own that would re-read the collection, so only the re-read after their listener is back delivers the last change.
      const writing = writeLoop(
        [writers[cycle % 2] as (typeof writers)[number]],
        (_w, last) => {
          // Stop after the first acknowledged write started once PostgreSQL was back.
          return last.ok && last.at > restartDoneAt;
        },
        o.writeMs + 30_000,
      );
      await sleep(Math.max(0, stopBefore - performance.now()));
      phase = 'outage';
      const restartAt = performance.now();
      restartDoneAt = Number.POSITIVE_INFINITY;
      const commandMs = relay ? await cutRelay(relay, o.relayDownMs ?? 1000) : await restartPostgres();
      restartDoneAt = performance.now();
      result.restartCommandMs.push(Math.round(commandMs));
      await writing;
      // Both ready again.
      const readyAt = async (i: number) => {
        for (;;) {
          const hit = timeline[i]?.find(
            (x) =>
              x.at > restartAt &&
              x.status === 200 &&
              timeline[i]?.some((y) => y.at > restartAt && y.at < x.at && y.status !== 200),
          );
          if (hit) return hit.at;
          if (performance.now() - restartAt > 30_000) return Number.NaN;
          await sleep(25);
        }
      };
      const ready = await Promise.all(procs.map((_p, i) => readyAt(i)));
      result.recoverMs.push(Math.round(Math.max(...ready) - restartAt));
      result.recoverAfterDbMs.push(Math.round(Math.max(0, Math.max(...ready) - restartDoneAt)));
      // The last writes (made while the other listener was likely reconnecting) reach every stream.
      const ok = await waitConverged(15_000);
      result.convergeMs.push(ok ? Math.round(performance.now() - restartAt) : Number.NaN);
      log(
        `restart ${cycle + 1}: pg_ctlcluster restart ${Math.round(commandMs)} ms, both processes ready after ${result.recoverMs.at(-1)} ms (${result.recoverAfterDbMs.at(-1)} ms after PostgreSQL was back), every stream converged after ${result.convergeMs.at(-1)} ms`,
      );
      for (const s of streams)
        for (const w of writers)
          if (shown(s, w.id) !== seqOf(w.master.registration))
            result.missed.push(
              `${s.name}: aircraft ${w.tag} shows ${shown(s, w.id)}, database ${w.master.registration}`,
            );
      // Writes after recovery: none may fail with a 5xx.
      phase = 'after';
      await writeLoop(writers, () => false, o.writeMs);
      if (!(await waitConverged(10_000)))
        for (const s of streams)
          for (const w of writers)
            if (shown(s, w.id) !== seqOf(w.master.registration))
              result.missed.push(
                `${s.name} after recovery: aircraft ${w.tag} shows ${shown(s, w.id)}, database ${w.master.registration}`,
              );
    }

    // Truth from the database through a fresh pull; nothing acknowledged may be lost.
    const truth = (await pullAll(b, token, 'aircraft')).docs;
    for (const w of writers) {
      const held = seqOf(truth.find((d) => d.id === w.id)?.registration);
      if (held < w.lastAcked)
        result.lost.push(`aircraft ${w.tag}: acknowledged ${w.lastAcked}, database holds ${held}`);
    }
    for (const s of streams) {
      if (s.ended) result.streamsEnded++;
      for (const w of writers) {
        let prev = -1;
        for (const e of s.events)
          if (e.event === 'change')
            for (const d of e.data.documents as Array<Record<string, unknown>>)
              if (d.id === w.id) {
                const n = seqOf(d.registration);
                if (n < prev) result.regressions.push(`${s.name}: aircraft ${w.tag} went from ${prev} to ${n}`);
                prev = n;
              }
      }
    }
    polling = false;
    await Promise.all(pollers);
    for (const [i, p] of procs.entries()) {
      result.readiness.push({
        saw503: timeline[i]?.some((x) => x.status === 503) ?? false,
        ready: timeline[i]?.at(-1)?.status === 200,
      });
      const metrics = await fetch(`${p.url}/metrics`).then((r) => r.text());
      result.listenerReconnects.push(Number(/^sync_listener_reconnects (\d+)/m.exec(metrics)?.[1] ?? -1));
    }
    return result;
  } finally {
    polling = false;
    await Promise.all(pollers).catch(() => {});
    await Promise.all(streams.map((s) => s.close()));
    // Whatever happened, PostgreSQL must be up for everyone else.
    await ensurePostgresRunning();
    await Promise.all(procs.map((p) => p.stop()));
    await schema.drop().catch(() => {});
    await relay?.close();
  }
}
