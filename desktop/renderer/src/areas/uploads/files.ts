/**
 * Offline attachments in the app (docs/areas/uploads.md): one client-core file
 * queue per signed-in login (IndexedDB, named after the login's database, so
 * another person's files never mix in), driven while the app runs, plus the
 * hooks the technical log and the sync bar read.
 */
import { databaseName, type OpsDoc } from '@ops/client-core';
import { IndexedDbFileQueueStore } from '@ops/client-core/files/indexeddb-store';
import { FileQueue } from '@ops/client-core/files/queue';
import type { QueuedFile } from '@ops/client-core/files/types';
import { FILES_TYPES, type UploadDoc } from '@ops/shared';
import { useEffect, useMemo, useState } from 'react';
import type { MangoQuery } from 'rxdb';
import { useDocs, useWorkspace } from '../../hooks.ts';
import type { Workspace } from '../../workspace.ts';
import './uploads.css';

/** How often waiting files are retried while the server answers (a record created offline must be pushed first). */
const RETRY_MS = 3000;

interface Uploader {
  queue: FileQueue;
  users: number;
  stop: (() => void) | null;
}

const uploaders = new WeakMap<Workspace, Uploader>();

function uploaderOf(ws: Workspace): Uploader {
  let u = uploaders.get(ws);
  if (!u) {
    const store = new IndexedDbFileQueueStore(`ops-files.${databaseName(ws.baseUrl, ws.user.id, ws.user.company_id)}`);
    u = { queue: new FileQueue({ store, baseUrl: ws.baseUrl, token: () => ws.token }), users: 0, stop: null };
    uploaders.set(ws, u);
  }
  return u;
}

export const fileQueueOf = (ws: Workspace): FileQueue => uploaderOf(ws).queue;

/** Uploads waiting files whenever the server answers: now, on reconnect, and every few seconds while some wait. */
function drive(ws: Workspace, queue: FileQueue): () => void {
  let waiting = false;
  const kick = () => {
    if (!navigator.onLine || !ws.client.syncState$.value.online) return;
    void queue.process().catch(() => undefined);
  };
  const unsubscribe = queue.subscribe((files) => {
    waiting = files.some((f) => f.state === 'pending' || f.state === 'uploading');
  });
  void queue.pendingCount().then((n) => {
    waiting = n > 0;
    kick();
  });
  const sub = ws.client.syncState$.subscribe((s) => {
    if (s.online && waiting) kick();
  });
  const timer = setInterval(() => waiting && kick(), RETRY_MS);
  window.addEventListener('online', kick);
  return () => {
    unsubscribe();
    sub.unsubscribe();
    clearInterval(timer);
    window.removeEventListener('online', kick);
  };
}

/** Every file of this login's queue, live; mounting it also keeps the uploads running. */
export function useQueuedFiles(): QueuedFile[] {
  const ws = useWorkspace();
  const [files, setFiles] = useState<QueuedFile[]>([]);
  useEffect(() => {
    const u = uploaderOf(ws);
    u.users += 1;
    u.stop ??= drive(ws, u.queue);
    let live = true;
    const unsubscribe = u.queue.subscribe((list) => live && setFiles(list));
    void u.queue.list().then((list) => live && setFiles(list));
    return () => {
      live = false;
      unsubscribe();
      u.users -= 1;
      if (u.users === 0) {
        u.stop?.();
        u.stop = null;
      }
    };
  }, [ws]);
  return files;
}

/** Files still to upload (the sync bar's count). */
export function usePendingFileCount(): number {
  const files = useQueuedFiles();
  return files.filter((f) => f.state === 'pending' || f.state === 'uploading').length;
}

/**
 * The uploads of one record from the local `files` collection (works offline).
 * The query names the model only, so every card of a screen shares one RxDB
 * query (RxDB caches identical queries) and picks its record's files from it.
 */
export function useAttachments(model: string, foreignKey: string): UploadDoc[] {
  const query = useMemo((): MangoQuery<OpsDoc> => ({ selector: { type: FILES_TYPES.upload, model } }), [model]);
  const { docs } = useDocs<UploadDoc>('files', query);
  return useMemo(
    () =>
      docs
        .filter((d) => d.foreign_key === foreignKey && d.active)
        .sort((a, b) => a.created - b.created || a.id.localeCompare(b.id)),
    [docs, foreignKey],
  );
}

interface ThumbCache {
  url: string;
  until: number;
}
/** Signed thumbnail URLs from the uploads index (valid an hour; kept 50 minutes). */
const thumbs = new Map<string, ThumbCache>();
const THUMB_KEEP_MS = 50 * 60_000;

/**
 * Server thumbnails of a record's photos: the uploads index answers signed
 * `thumb_url`s an `<img>` loads without the Authorization header. Asked only
 * online and only when a photo with a thumbnail has none cached.
 */
export function useServerThumbnails(
  model: string,
  foreignKey: string,
  docs: readonly UploadDoc[],
  online: boolean,
): ReadonlyMap<string, string> {
  const ws = useWorkspace();
  const [version, setVersion] = useState(0);
  const wanted = docs.filter((d) => d.has_thumb).map((d) => d.id);
  const key = wanted.join(',');
  useEffect(() => {
    const ids = key ? key.split(',') : [];
    const now = Date.now();
    if (!online || ids.every((id) => (thumbs.get(id)?.until ?? 0) > now)) return;
    let live = true;
    ws.rest<{ uploads: Array<{ id: string; thumb_url?: string | null }> }>(
      'GET',
      `/uploads/index/${encodeURIComponent(model)}/${encodeURIComponent(foreignKey)}.json?limit=1000`,
    )
      .then((r) => {
        for (const u of r.uploads)
          if (u.thumb_url) thumbs.set(u.id, { url: u.thumb_url, until: Date.now() + THUMB_KEEP_MS });
        if (live) setVersion((v) => v + 1);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [ws, model, foreignKey, key, online]);
  return useMemo(() => {
    const out = new Map<string, string>();
    if (version < 0) return out; // `version` changes when the cache was refreshed
    for (const id of key ? key.split(',') : []) {
      const hit = thumbs.get(id);
      if (hit) out.set(id, hit.url);
    }
    return out;
  }, [key, version]);
}

/** A small JPEG data URL of a picked photo for the list while it waits (null when the browser cannot decode it). */
export async function thumbnailOf(file: Blob, edge = 240): Promise<string | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, edge / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return canvas.toDataURL('image/jpeg', 0.75);
  } catch {
    return null;
  }
}
