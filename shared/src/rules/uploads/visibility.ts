/**
 * Who may see an upload (Part A 4.9; docs/areas/uploads.md), one definition for
 * the REST endpoints (index, view, download) and the `files` sync collection.
 */

/** External Auditor (Part A 1.2). */
export const UPLOAD_AUDITOR_ROLE = 250;

export interface UploadViewer {
  userId: string;
  role: number;
}

export interface UploadVisibilityRow {
  /** Attached and confirmed (1/true); an inactive upload is only its uploader's. */
  active: unknown;
  user_id: unknown;
}

const truthy = (v: unknown) => v === true || v === 1 || v === '1';

/** Every user of the company sees active uploads; an inactive one (signed, not yet completed or confirmed) only its uploader. */
export function uploadVisible(row: UploadVisibilityRow, viewer: UploadViewer): boolean {
  return truthy(row.active) || row.user_id === viewer.userId;
}

/**
 * The file itself (download, list URLs, thumbnail) is withheld while the metadata
 * stays visible: an External Auditor gets no file of a `UserCertificate` upload.
 */
export function uploadFileWithheld(row: { model: unknown }, viewer: Pick<UploadViewer, 'role'>): boolean {
  return viewer.role === UPLOAD_AUDITOR_ROLE && row.model === 'UserCertificate';
}
