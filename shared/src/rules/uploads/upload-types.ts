/**
 * Upload type classes and content checks (Part A 2.11, 4.9), shared by the server
 * and offline clients so both classify and validate a file the same way.
 */

export const UPLOAD_TYPES = ['photo', 'video', 'document', 'sound', 'other'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

/** Direct upload cap (Part A 8): 2 GB. */
export const MAX_DIRECT_UPLOAD_BYTES = 2 * 1024 ** 3;
/** Upload through the API (multipart `create`), Part A 8: 100 MB. */
export const MAX_API_UPLOAD_BYTES = 100 * 1024 ** 2;
/** Presigned URL lifetime (Part A 8): 15 minutes. */
export const PRESIGNED_URL_SECONDS = 15 * 60;
/** Signed but never completed uploads are removed after this (Part A 3). */
export const INCOMPLETE_UPLOAD_TTL_SECONDS = 24 * 3600;

/** Office formats accepted as `document` besides PDF. */
const OFFICE_MIMES = new Set([
  'application/pdf',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/rtf',
  'text/rtf',
]);

/** Plain formats without a magic number, accepted as `other`. */
const PLAIN_OTHER = new Set([
  'text/plain',
  'text/csv',
  'application/json',
  'application/xml',
  'text/xml',
  'application/zip',
  'application/octet-stream',
]);

const MIME_RE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

const normalise = (mime: string) => mime.trim().toLowerCase().split(';')[0]!.trim();

/** The type class of a mime type, or null when the mime is not supported. */
export function uploadTypeOf(mime: string): UploadType | null {
  const m = normalise(mime);
  if (!MIME_RE.test(m)) return null;
  if (m.startsWith('image/')) return 'photo';
  if (m.startsWith('video/')) return 'video';
  if (m.startsWith('audio/')) return 'sound';
  if (OFFICE_MIMES.has(m)) return 'document';
  if (PLAIN_OTHER.has(m)) return 'other';
  return null;
}

/** Mime families that are the same content under another name (sniffers and browsers disagree). */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'audio/mp3': 'audio/mpeg',
  'audio/x-mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'video/x-m4v': 'video/mp4',
  'application/x-pdf': 'application/pdf',
};
const canonical = (mime: string) => ALIASES[normalise(mime)] ?? normalise(mime);

/** Office Open XML and OpenDocument files are ZIP containers; old Office files are CFB containers. */
const CONTAINER_OF: Record<string, string[]> = {
  'application/zip': [
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/vnd.oasis.opendocument.text',
    'application/vnd.oasis.opendocument.spreadsheet',
    'application/vnd.oasis.opendocument.presentation',
  ],
  'application/x-cfb': ['application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint'],
};

/**
 * Whether the sniffed content (mime detected from the leading bytes, null when no
 * signature matched) is consistent with the declared mime.
 * - photo, video, sound and binary documents must be recognised, in the same class
 *   (an MP4 declared as video/quicktime is fine, a PNG declared as a PDF is not);
 *   documents must match exactly, allowing the ZIP/CFB containers of office formats;
 * - text formats (plain, CSV, RTF...) carry no signature: accepted when nothing binary was recognised.
 */
export function contentMatchesDeclared(declaredMime: string, sniffedMime: string | null): boolean {
  const declared = canonical(declaredMime);
  const klass = uploadTypeOf(declared);
  if (!klass) return false;
  const textual =
    declared.startsWith('text/') ||
    declared === 'application/json' ||
    declared === 'application/xml' ||
    declared === 'application/rtf';
  if (sniffedMime === null) return textual || declared === 'application/octet-stream';
  const sniffed = canonical(sniffedMime);
  if (declared === 'application/octet-stream') return true;
  if (textual)
    return (
      sniffed === declared ||
      (declared.endsWith('rtf') && sniffed.endsWith('rtf')) ||
      (declared.endsWith('xml') && sniffed.endsWith('xml'))
    );
  if (klass === 'photo' || klass === 'video' || klass === 'sound') {
    if (uploadTypeOf(sniffed) === klass) return true;
    // MP4/M4A and similar containers: audio declared, the sniffer may answer video/mp4 (same ISO BMFF box).
    return klass === 'sound' && sniffed === 'video/mp4' && (declared === 'audio/mp4' || declared === 'audio/aac');
  }
  if (sniffed === declared) return true;
  return (CONTAINER_OF[sniffed] ?? []).includes(declared);
}

/** Validation of the five `sign` parameters; returns field errors (empty when valid). */
export function signErrors(input: {
  filename?: unknown;
  mime?: unknown;
  size?: unknown;
  model?: unknown;
  foreign_key?: unknown;
}): Record<string, string> {
  const errors: Record<string, string> = {};
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
  const filename = str(input.filename);
  if (!filename) errors.filename = 'Required';
  else if (filename.length > 255 || /[/\\]/.test(filename) || stripControl(filename) !== filename)
    errors.filename = 'Invalid file name';
  const mime = str(input.mime);
  if (!mime) errors.mime = 'Required';
  else if (!uploadTypeOf(mime)) errors.mime = 'Unsupported file type';
  const sizeRaw = input.size;
  if (sizeRaw === undefined || sizeRaw === null || sizeRaw === '') errors.size = 'Required';
  else {
    const size =
      typeof sizeRaw === 'number'
        ? sizeRaw
        : /^\d+$/.test(String(sizeRaw).trim())
          ? Number(String(sizeRaw).trim())
          : Number.NaN;
    if (!Number.isSafeInteger(size) || size <= 0) errors.size = 'Invalid size';
    else if (size > MAX_DIRECT_UPLOAD_BYTES) errors.size = 'File is larger than 2 GB';
  }
  if (!str(input.model)) errors.model = 'Required';
  else if (str(input.model).length > 64) errors.model = 'Too long';
  if (!str(input.foreign_key)) errors.foreign_key = 'Required';
  else if (str(input.foreign_key).length > 64) errors.foreign_key = 'Too long';
  return errors;
}

/** A file name safe for a storage key and a Content-Disposition header. */
export function safeFilename(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const cleaned = stripControl(base).replace(/"/g, '').trim().slice(0, 200);
  return cleaned || 'file';
}

/** The text without control characters (U+0000 to U+001F and U+007F). */
export function stripControl(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x20 && code !== 0x7f) out += ch;
  }
  return out;
}
