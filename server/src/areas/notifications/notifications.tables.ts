import type { ReplicatedBase } from '../../db/core-tables.ts';
import type { Bool } from '../../db/schema.ts';

export interface NotificationsTable extends ReplicatedBase {
  user_id: string;
  title: string;
  body: string | null;
  link: string | null;
  read: Bool;
}

declare module '../../db/schema.ts' {
  interface DB {
    notifications: NotificationsTable;
  }
}
