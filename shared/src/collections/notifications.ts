import { type CollectionDef, s } from './types.ts';

/** In-app notifications of the signed-in user (CONTRACT 4 `/notifications.json`). */
export interface NotificationDoc {
  id: string;
  user_id: string;
  title: string;
  body: string | null;
  link: string | null;
  read: boolean;
  created: number;
}

export const notificationsCollection: CollectionDef<NotificationDoc> = {
  name: 'notifications',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      user_id: s.reqStr,
      title: s.reqStr,
      body: s.str,
      link: s.str,
      read: s.bool,
      created: s.int,
    },
    required: ['id', 'user_id', 'title', 'read', 'created'],
  },
  rows: { kind: 'own', field: 'user_id' },
  visible: (doc) => doc,
  writableFields: ['read'],
  canPush: () => true,
};
