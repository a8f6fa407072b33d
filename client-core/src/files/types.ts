/**
 * Offline attachments (docs/areas/uploads.md): files chosen or photographed without
 * network wait in a local queue with their target record (`model`, `foreignKey`),
 * survive restarts, and upload through sign → PUT → complete when the server is
 * reachable. A record created offline has its client-made id already, so its files
 * wait (sign answers 404) until the record's push has reached the server.
 */
export type QueuedFileState = 'pending' | 'uploading' | 'done' | 'failed';

export interface QueuedFile {
  /** Local id (also the key of the bytes). */
  id: string;
  filename: string;
  mime: string;
  size: number;
  model: string;
  foreignKey: string;
  state: QueuedFileState;
  /** Server upload id once signed; a restarted PUT reuses nothing else. */
  uploadId: string | null;
  /** Unix ms. */
  created: number;
  attempts: number;
  error: string | null;
  /** Small JPEG/PNG data URL for lists while the file waits (optional). */
  thumbnail?: string | null;
}

/** Where the queue keeps its entries and bytes: memory, disk (Node) or IndexedDB (browser, Electron). */
export interface FileQueueStore {
  list(): Promise<QueuedFile[]>;
  save(entry: QueuedFile): Promise<void>;
  saveBytes(id: string, bytes: Uint8Array): Promise<void>;
  bytes(id: string): Promise<Uint8Array | null>;
  remove(id: string): Promise<void>;
}
