import { allows, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

/**
 * Who may see and manage an upload (Part A 4.9; docs/areas/uploads.md), one
 * definition for the REST endpoints (index, view, download, attach) and the
 * `files` sync collection.
 */
export const uploadGates = {
  /** Staff (<= 170) change the expiration of, delete and attach any upload of the company. */
  manage: roleGate('uploads.manage', { maxRole: ROLES.DISPATCHER }),
  /** The External Auditor (Part A 1.2) gets no file of a `UserCertificate` upload. */
  auditor: roleGate('uploads.auditor', { roles: [ROLES.AUDITOR] }),
};

/** Manages (expiration, deletion) this upload: staff any of the company, others their own. */
export const mayManageUpload = (actor: PolicyActor, row: { user_id: unknown }): boolean =>
  allows(uploadGates.manage, actor.role) || row.user_id === actor.userId;

/** Attaches any verified upload of the company to a record; others only their own uploads. */
export const mayAttachAnyUpload = (actor: Pick<PolicyActor, 'role'>): boolean => allows(uploadGates.manage, actor.role);

export interface UploadViewer {
  userId: string;
  role: number;
}

export interface UploadVisibilityRow {
  /** Attached and confirmed (1/true); an inactive upload is only its uploader's. */
  active: unknown;
  user_id: unknown;
}

/**
 * Models whose uploads only those who may see the attached record see (the
 * server's `visibleTo` of each, in uploads/attachments.service.ts, which refuses to
 * register a model that disagrees with this list): training class work and
 * justifications, safety reports. The `files` collection replicates their
 * uploads to the uploader alone; the others follow `uploadVisible`.
 */
export const UPLOAD_MODELS_WITH_RECORD_VISIBILITY = [
  'SessionClasswork',
  'SessionJustification',
  'SafetyReport',
] as const;

const truthy = (v: unknown) => v === true || v === 1 || v === '1';

/** Every user of the company sees active uploads; an inactive one (signed, not yet completed or confirmed) only its uploader. */
export function uploadVisible(row: UploadVisibilityRow, viewer: UploadViewer): boolean {
  return truthy(row.active) || row.user_id === viewer.userId;
}

/** Replicated to the viewer by the `files` collection: `uploadVisible`, and uploads of records with their own visibility only to their uploader. */
export function uploadReplicated(row: UploadVisibilityRow & { model: unknown }, viewer: UploadViewer): boolean {
  if ((UPLOAD_MODELS_WITH_RECORD_VISIBILITY as readonly unknown[]).includes(row.model))
    return row.user_id === viewer.userId;
  return uploadVisible(row, viewer);
}

/**
 * The file itself (download, list URLs, thumbnail) is withheld while the metadata
 * stays visible: an External Auditor gets no file of a `UserCertificate` upload.
 */
export function uploadFileWithheld(row: { model: unknown }, viewer: Pick<UploadViewer, 'role'>): boolean {
  return allows(uploadGates.auditor, viewer.role) && row.model === 'UserCertificate';
}
