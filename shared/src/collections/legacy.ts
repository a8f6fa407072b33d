import { aircraftCollection } from './aircraft.ts';
import { type AircraftReportDoc, aircraftReportsCollection } from './aircraft-reports.ts';
import { commandsCollection } from './commands.ts';
import { DEVICE_TYPES } from './device.ts';
import { FLEET_TYPES, type FleetReportDoc, fromFleetReport, toFleetReport } from './fleet.ts';
import { INBOX_TYPES } from './inbox.ts';
import { inventoryCollection } from './inventory.ts';
import { maintenanceJobsCollection } from './maintenance-jobs.ts';
import { newsCollection } from './news.ts';
import { notificationsCollection } from './notifications.ts';
import { outcomesCollection } from './outcomes.ts';
import { PEOPLE_TYPES } from './people.ts';
import { PERSONAL_TYPES, personalCollection } from './personal.ts';
import type { CollectionDef } from './types.ts';
import { usersCollection } from './users.ts';

/**
 * The layout before area collections (one RxDB collection per record type,
 * schema version 0), and where each old collection's documents go. A client
 * that still holds these collections carries their documents over on open
 * (client-core `upgradeLayout`), pending writes and queued commands included.
 */
export interface LegacyCollection {
  def: CollectionDef<{ id: string }>;
  into: string;
  /** The `type` values its documents carry in the new collection. */
  types: readonly string[];
  convert(doc: Record<string, unknown>): Record<string, unknown>;
  /** A document of the new collection back in this old shape. */
  back(doc: Record<string, unknown>): Record<string, unknown>;
}

const typed = (type: string) => ({
  types: [type],
  convert: (doc: Record<string, unknown>) => ({ ...doc, type }),
  back: ({ type: _t, ...doc }: Record<string, unknown>) => doc,
});

export const LEGACY_COLLECTIONS: readonly LegacyCollection[] = [
  { def: usersCollection as unknown as CollectionDef<{ id: string }>, into: 'people', ...typed(PEOPLE_TYPES.user) },
  {
    def: personalCollection as unknown as CollectionDef<{ id: string }>,
    into: 'people',
    types: PERSONAL_TYPES,
    convert: (doc) => doc,
    back: (doc) => doc,
  },
  {
    def: aircraftCollection as unknown as CollectionDef<{ id: string }>,
    into: 'fleet',
    ...typed(FLEET_TYPES.aircraft),
  },
  {
    def: aircraftReportsCollection as unknown as CollectionDef<{ id: string }>,
    into: 'fleet',
    types: [FLEET_TYPES.report],
    convert: (doc) => toFleetReport(doc as unknown as AircraftReportDoc),
    back: (doc) => fromFleetReport(doc as unknown as FleetReportDoc) as unknown as Record<string, unknown>,
  },
  {
    def: maintenanceJobsCollection as unknown as CollectionDef<{ id: string }>,
    into: 'fleet',
    ...typed(FLEET_TYPES.job),
  },
  { def: inventoryCollection as unknown as CollectionDef<{ id: string }>, into: 'fleet', ...typed(FLEET_TYPES.part) },
  {
    def: notificationsCollection as unknown as CollectionDef<{ id: string }>,
    into: 'inbox',
    ...typed(INBOX_TYPES.notification),
  },
  { def: newsCollection as unknown as CollectionDef<{ id: string }>, into: 'inbox', ...typed(INBOX_TYPES.news) },
  {
    def: commandsCollection as unknown as CollectionDef<{ id: string }>,
    into: 'device',
    ...typed(DEVICE_TYPES.command),
  },
  {
    def: outcomesCollection as unknown as CollectionDef<{ id: string }>,
    into: 'device',
    ...typed(DEVICE_TYPES.outcome),
  },
];
