import { type CollectionDef, s } from './types.ts';

/** Why a pushed change did not land as sent: a rejection by the server's rules, or a lost conflict. */
export interface OutcomeDoc {
  id: string;
  /** Named so: `collection` is a reserved RxDocument property. */
  collection_name: string;
  document_id: string;
  status: 'rejected' | 'conflict';
  reason: string;
  attempted: Record<string, unknown> | null;
  user_id: string;
  created: number;
}

export const outcomesCollection: CollectionDef<OutcomeDoc> = {
  name: 'outcomes',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      collection_name: s.reqStr,
      document_id: s.reqStr,
      status: { type: 'string', maxLength: 16 },
      reason: s.reqStr,
      attempted: s.json,
      user_id: s.reqStr,
      created: s.int,
    },
    required: ['id', 'collection_name', 'document_id', 'status', 'reason', 'user_id', 'created'],
  },
  rows: { kind: 'own', field: 'user_id' },
  visible: (doc) => doc,
  writableFields: [],
  canPush: () => false,
};
