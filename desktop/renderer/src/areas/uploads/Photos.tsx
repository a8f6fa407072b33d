import type { QueuedFile } from '@ops/client-core/files/types';
import type { UploadDoc } from '@ops/shared';
import { type ChangeEvent, useMemo, useState } from 'react';
import { useSyncField, useWorkspace } from '../../hooks.ts';
import { useLocale, useT } from '../../i18n.tsx';
import { fileQueueOf, thumbnailOf, useAttachments, useQueuedFiles, useServerThumbnails } from './files.ts';

/**
 * A record's photos and files (the technical log's defects): what the server
 * has (the local `files` collection, server thumbnails when online) and what
 * waits on this device (the file queue, with its own thumbnail). `canAdd`
 * shows the picker: a file input that opens the camera on devices with one.
 */
export function Photos({ model, foreignKey, canAdd }: { model: string; foreignKey: string; canAdd: boolean }) {
  const ws = useWorkspace();
  const t = useT();
  const online = useSyncField('online');
  const docs = useAttachments(model, foreignKey);
  const queued = useQueuedFiles();
  const waiting = useMemo(
    () => queued.filter((f) => f.model === model && f.foreignKey === foreignKey),
    [queued, model, foreignKey],
  );
  // A file just completed may already be on the server while the queue drops it: show it once.
  const uploadedIds = new Set(waiting.map((f) => f.uploadId).filter(Boolean));
  const stored = docs.filter((d) => !uploadedIds.has(d.id));
  const server = useServerThumbnails(model, foreignKey, stored, online);
  const [error, setError] = useState<string | null>(null);

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const files = [...(input.files ?? [])];
    input.value = '';
    setError(null);
    const queue = fileQueueOf(ws);
    for (const file of files) {
      try {
        const bytes = new Uint8Array(await file.arrayBuffer());
        await queue.enqueue({
          filename: file.name || 'photo.jpg',
          mime: file.type || 'application/octet-stream',
          bytes,
          model,
          foreignKey,
          thumbnail: await thumbnailOf(file),
        });
      } catch (err) {
        setError((err as Error).message);
      }
    }
    if (ws.client.syncState$.value.online) void queue.process().catch(() => undefined);
  };

  if (!canAdd && stored.length === 0 && waiting.length === 0) return null;
  return (
    <div className="photos" data-testid="photos">
      {(stored.length > 0 || waiting.length > 0) && (
        <ul className="photo-list">
          {stored.map((d) => (
            <StoredFile key={d.id} doc={d} thumb={server.get(d.id) ?? null} />
          ))}
          {waiting.map((f) => (
            <WaitingFile key={f.id} file={f} />
          ))}
        </ul>
      )}
      {canAdd && (
        <label className="photo-pick secondary small">
          {t('uploads.addPhoto')}
          <input
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            onChange={pick}
            aria-label={t('uploads.addPhoto')}
          />
        </label>
      )}
      {error && (
        <p className="form-warning" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A file's size in kB or MB with the language's number and unit words (Intl: "12 kB", "1,5 Mo"). */
const sizeText = (n: number | null, locale: string) =>
  n === null
    ? ''
    : n < 1024 * 1024
      ? new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilobyte' }).format(Math.max(1, Math.round(n / 1024)))
      : new Intl.NumberFormat(locale, {
          style: 'unit',
          unit: 'megabyte',
          maximumFractionDigits: 1,
          minimumFractionDigits: 1,
        }).format(n / 1024 / 1024);

function StoredFile({ doc, thumb }: { doc: UploadDoc; thumb: string | null }) {
  const t = useT();
  const { locale } = useLocale();
  const dims = doc.width && doc.height ? ` · ${doc.width}×${doc.height}` : '';
  return (
    <li
      className="photo"
      data-upload-id={doc.id}
      data-state="uploaded"
      title={`${doc.filename} · ${sizeText(doc.size, locale)}${dims}`}
    >
      {thumb ? (
        <img src={thumb} alt={doc.filename} loading="lazy" />
      ) : (
        <span className="photo-placeholder">{doc.file_type === 'photo' ? t('uploads.photo') : t('uploads.file')}</span>
      )}
      <span className="photo-name">{doc.filename}</span>
    </li>
  );
}

function WaitingFile({ file }: { file: QueuedFile }) {
  const t = useT();
  const failed = file.state === 'failed';
  return (
    <li
      className={`photo ${failed ? 'is-failed' : 'is-waiting'}`}
      data-queued-id={file.id}
      data-state={file.state}
      title={file.error ?? t('uploads.savedHere')}
    >
      {file.thumbnail ? (
        <img src={file.thumbnail} alt={file.filename} />
      ) : (
        <span className="photo-placeholder">{file.filename}</span>
      )}
      <span className="photo-name">
        {failed ? t('uploads.refused', { reason: file.error ?? '' }) : t('uploads.waiting')}
      </span>
    </li>
  );
}
