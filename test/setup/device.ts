import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'device-process.ts');

let bundled: Promise<string> | null = null;
/**
 * device-process.ts and what it imports, bundled once per test process into one plain module: a device then
 * starts in about 1 s instead of 6-8 s under tsx (which transpiles at start and keeps its own esbuild
 * service per process), the larger part of opening 50 devices on a loaded machine.
 */
function deviceScript(): Promise<string> {
  bundled ??= (async () => {
    const { build } = await import('esbuild');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-device-'));
    const outfile = path.join(dir, 'device-process.mjs');
    await build({
      entryPoints: [script],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      // Bundled CommonJS dependencies call require().
      banner: { js: "import { createRequire as __req } from 'node:module'; const require = __req(import.meta.url);" },
    });
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    return outfile;
  })();
  return bundled;
}

/** A simulated field device: a client-core instance in a child process, driven over IPC. */
export class Device {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private constructor(private readonly child: ChildProcess) {
    child.on('message', (m: { id?: number; ok?: boolean; result?: unknown; error?: string }) => {
      if (m.id === undefined) return;
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.ok) w?.resolve(m.result);
      else w?.reject(new Error(m.error));
    });
  }

  /** `options`: client-core options for this device (e.g. `{ bootstrap: false, pullBatchSize: 3 }`). */
  static async open(
    baseUrl: string,
    email: string,
    options: { bootstrap?: boolean; pullBatchSize?: number; firstStreamSpreadMs?: number } = {},
  ): Promise<Device> {
    const child = fork(await deviceScript(), [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`device exited ${code}`)));
    });
    const d = new Device(child);
    try {
      await d.call('open', { baseUrl, email, options });
    } catch (err) {
      // A failed sign-in or first sync (server busy, balancer answering 503) leaves no process behind.
      await d.close();
      throw err;
    }
    return d;
  }

  call<T = any>(op: string, args: unknown = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, op, args });
    });
  }

  offline = () => this.call('offline');
  online = () => this.call('online');
  restart = () => this.call('restart');
  state = () =>
    this.call<{ online: boolean; pendingWrites: number; pendingCommands: number; lastError: string | null }>('state');
  save = (collection: string, doc: Record<string, unknown>) => this.call('save', { collection, doc });
  find = (collection: string, selector: Record<string, unknown> = {}) =>
    this.call<any[]>('find', { collection, selector });
  /** One document of a record type, the one at `u` (0 <= u < 1) of the device's list; null when it holds none (no list crosses IPC). */
  pick = (collection: string, u: number) => this.call<any | null>('pick', { collection, u });
  run = (name: string, args: Record<string, unknown>) => this.call<string>('run', { name, args });
  dump = () => this.call<Record<string, Record<string, unknown>[]>>('dump');
  decided = (id: string) => this.call<any>('decided', { id });

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    await this.call('close').catch(() => {});
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    this.child.kill('SIGKILL');
  }
}
