import type { MessageId } from '@ops/shared/i18n/index';

/** What each collection holds, in the words of the screens that show it. */
export const COLLECTION_LABELS: Record<string, MessageId> = {
  reference: 'shell.screenCompany',
  device: 'shell.syncDevice',
  people: 'shell.groupPeople',
  inbox: 'shell.syncInbox',
  files: 'shell.syncFiles',
  training: 'shell.groupTraining',
  safety: 'shell.screenSafety',
  bookings: 'shell.syncBookings',
  fleet: 'shell.syncFleet',
  flights: 'shell.flights',
};
