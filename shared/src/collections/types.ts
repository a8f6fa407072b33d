/**
 * A replicated collection, defined once for the server (REST presenters, sync
 * pull and push) and the clients (RxDB schema).
 */

/** The caller, as both sides see it. */
export interface Viewer {
  userId: string;
  companyId: string;
  role: number;
}

/** JSON schema subset RxDB accepts (primary key `id`, no `$ref`). */
export interface JsonSchemaProp {
  type:
    | 'string'
    | 'number'
    | 'integer'
    | 'boolean'
    | 'object'
    | 'array'
    | Array<'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null'>;
  maxLength?: number;
  items?: JsonSchemaProp;
  properties?: Record<string, JsonSchemaProp>;
  additionalProperties?: boolean;
  enum?: readonly (string | null)[];
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
}

/**
 * Which rows a viewer receives. Always inside the viewer's company.
 * - `company`: every row of the company.
 * - `own`: rows whose `field` is the viewer (commands, outcomes, notifications).
 * - `involved`: viewers with role <= `staffMaxRole` get every row; others only
 *   rows where one of `fields` is the viewer (flights of a student).
 */
export type RowScope =
  | { kind: 'company' }
  | { kind: 'own'; field: string }
  | { kind: 'involved'; fields: readonly string[]; staffMaxRole: number }
  /**
   * Any other rule (safety drafts, typed collections mixing scopes): `fields`
   * are the row's columns the rule reads (the source selects them, `type`
   * included where a collection carries several record types); `test` is the
   * one definition REST and sync share.
   */
  | { kind: 'custom'; fields: readonly string[]; test(row: Record<string, unknown>, viewer: Viewer): boolean };

export interface CollectionDef<Doc extends { id: string }> {
  name: string;
  /** RxDB schema version; bump with a migration strategy on the client. */
  version: number;
  schema: {
    properties: Record<keyof Doc & string, JsonSchemaProp>;
    required: readonly (keyof Doc & string)[];
    indexes?: string[][];
  };
  rows: RowScope;
  /**
   * Field visibility: returns the document as this viewer may see it (fields
   * nulled). Pure, so the REST presenter and the sync pull share it.
   */
  visible(doc: Doc, viewer: Viewer): Doc;
  /** Fields a client may change through push (compared for conflicts); empty = read-only. */
  writableFields: readonly (keyof Doc & string)[];
  /** Roles that may push changes (besides the rules the server's service applies). */
  canPush(viewer: Viewer): boolean;
}

/** A row of the company the viewer may see under `rows` (the same test the server's SQL applies). */
/** The row columns a scope reads. */
export function scopeFields(scope: RowScope): readonly string[] {
  return scope.kind === 'own'
    ? [scope.field]
    : scope.kind === 'involved' || scope.kind === 'custom'
      ? scope.fields
      : [];
}

export function rowVisible(scope: RowScope, row: Record<string, unknown>, viewer: Viewer): boolean {
  if (scope.kind === 'company') return true;
  if (scope.kind === 'own') return row[scope.field] === viewer.userId;
  if (scope.kind === 'custom') return scope.test(row, viewer);
  return viewer.role <= scope.staffMaxRole || scope.fields.some((f) => row[f] === viewer.userId);
}

/**
 * A short fingerprint of what decides a viewer's visibility. Stored in sync
 * checkpoints: when it changes (role change), the server restarts the pull from
 * zero and sends rows that are no longer visible as deletions.
 */
export function visibilityFingerprint(viewer: Viewer): string {
  return `${viewer.companyId}:${viewer.userId}:${viewer.role}`;
}

export const s = {
  id: { type: 'string', maxLength: 64 } as JsonSchemaProp,
  str: { type: ['string', 'null'] } as JsonSchemaProp,
  reqStr: { type: 'string' } as JsonSchemaProp,
  num: { type: ['number', 'null'] } as JsonSchemaProp,
  int: { type: 'integer' } as JsonSchemaProp,
  bool: { type: 'boolean' } as JsonSchemaProp,
  json: { type: ['object', 'null'], additionalProperties: true } as JsonSchemaProp,
  /** Indexed numbers need bounds in RxDB. */
  indexedNum: { type: 'number', minimum: 0, maximum: 1e13, multipleOf: 1 } as JsonSchemaProp,
};

/**
 * A stand-in carrying only the id and type defaults of the required fields:
 * what a viewer receives, as a deletion, for a row it may no longer see, so no
 * content leaks while its local copy goes away.
 */
export function blankDoc<Doc extends { id: string }>(def: CollectionDef<Doc>, id: string): Doc {
  const out: Record<string, unknown> = { id };
  for (const key of def.schema.required) {
    if (key === 'id') continue;
    const t = def.schema.properties[key].type;
    const first = Array.isArray(t) ? t[0] : t;
    out[key] =
      first === 'string' ? '' : first === 'boolean' ? false : first === 'object' ? {} : first === 'array' ? [] : 0;
  }
  return out as Doc;
}
