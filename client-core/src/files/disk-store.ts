import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileQueueStore, QueuedFile } from './types.ts';

/**
 * Node queue store: `<dir>/<id>.json` (entry) and `<dir>/<id>.bin` (bytes). Entries
 * are written to a temporary name and renamed, so a crash never leaves half an entry.
 */
export class DiskFileQueueStore implements FileQueueStore {
  constructor(private readonly dir: string) {}

  private file(id: string, ext: 'json' | 'bin') {
    if (!/^[\w-]{1,80}$/.test(id)) throw new Error('invalid queue id');
    return path.join(this.dir, `${id}.${ext}`);
  }

  private async write(target: string, data: string | Uint8Array) {
    await fs.mkdir(this.dir, { recursive: true });
    const tmp = `${target}.tmp`;
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, target);
  }

  async list(): Promise<QueuedFile[]> {
    let names: string[] = [];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return [];
    }
    const out: QueuedFile[] = [];
    for (const n of names.filter((x) => x.endsWith('.json'))) {
      try {
        out.push(JSON.parse(await fs.readFile(path.join(this.dir, n), 'utf8')) as QueuedFile);
      } catch {
        /* a torn write of an older version: skipped */
      }
    }
    return out.sort((a, b) => a.created - b.created);
  }
  save(entry: QueuedFile) {
    return this.write(this.file(entry.id, 'json'), JSON.stringify(entry));
  }
  saveBytes(id: string, bytes: Uint8Array) {
    return this.write(this.file(id, 'bin'), bytes);
  }
  async bytes(id: string) {
    try {
      return new Uint8Array(await fs.readFile(this.file(id, 'bin')));
    } catch {
      return null;
    }
  }
  async remove(id: string) {
    await fs.rm(this.file(id, 'bin'), { force: true });
    await fs.rm(this.file(id, 'json'), { force: true });
  }
}
