import { type CollectionDef, s } from './types.ts';

/**
 * Personal data of the signed-in user for offline use: their own certificates
 * and their own base schedule entries, grouped in one collection (free RxDB
 * opens about 13 collections per context). `data` holds the record as the REST
 * API presents it (`UserCertificate` or `BaseSchedule`; for `account`, the
 * billing `Account` and its last `entries`, docs/areas/billing.md). Read-only on clients:
 * writes go through REST, where the schedule and certificate rules run.
 */
export const PERSONAL_TYPES = ['certificate', 'schedule', 'account'] as const;
export type PersonalType = (typeof PERSONAL_TYPES)[number];

export interface PersonalDoc {
  id: string;
  type: PersonalType;
  user_id: string;
  data: Record<string, unknown> | null;
  updated: number;
}

export const personalCollection: CollectionDef<PersonalDoc> = {
  name: 'personal',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      type: { type: 'string', maxLength: 16 },
      user_id: { type: 'string', maxLength: 64 },
      data: s.json,
      updated: s.int,
    },
    required: ['id', 'type', 'user_id', 'updated'],
    indexes: [['type', 'id']],
  },
  rows: { kind: 'own', field: 'user_id' },
  visible: (doc) => doc,
  writableFields: [],
  canPush: () => false,
};
