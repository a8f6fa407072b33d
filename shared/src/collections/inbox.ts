import { areaCollection } from './area.ts';
import { newsCollection } from './news.ts';
import { notificationsCollection } from './notifications.ts';

/** What reaches a person: their own notifications (`notification`, own scope) and the company news (`news`). */
export const INBOX_TYPES = { notification: 'notification', news: 'news' } as const;

export const inboxCollection = areaCollection({
  name: 'inbox',
  version: 0,
  parts: [
    { types: [INBOX_TYPES.notification], def: notificationsCollection },
    { types: [INBOX_TYPES.news], def: newsCollection },
  ],
});
