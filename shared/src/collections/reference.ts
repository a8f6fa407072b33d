import { type CollectionDef, s } from './types.ts';

/**
 * Low-volume reference records grouped in one collection (free RxDB opens about
 * 13 collections per context): the company settings, bases, and later flight
 * types, operating hours, permissions... `type` tells them apart, `data` holds
 * the record as the REST API presents it.
 */
export const REFERENCE_TYPES = [
  'company',
  'base',
  'permissions',
  'operating_hours',
  'flight_type',
  'airport',
  'certificate_type',
  'maintenance_plan',
  'readiness',
] as const;
export type ReferenceType = (typeof REFERENCE_TYPES)[number];

export interface ReferenceDoc {
  id: string;
  type: ReferenceType;
  name: string;
  data: Record<string, unknown> | null;
  updated: number;
}

export const referenceCollection: CollectionDef<ReferenceDoc> = {
  name: 'reference',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      type: { type: 'string', maxLength: 32 },
      name: s.reqStr,
      data: s.json,
      updated: s.int,
    },
    required: ['id', 'type', 'name', 'updated'],
    indexes: [['type', 'id']],
  },
  rows: { kind: 'company' },
  visible: (doc) => doc,
  writableFields: [],
  canPush: () => false,
};
