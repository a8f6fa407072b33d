import './tables.ts';
import { aircraftServerCollection } from './collections/aircraft.ts';
import { commandsServerCollection, outcomesServerCollection } from './collections/commands.ts';
import { referenceServerCollection } from './collections/reference.ts';
import { usersServerCollection } from './collections/users.ts';
import { aircraftReportsServerCollection } from './collections/aircraft-reports.ts';
import { maintenanceJobsServerCollection } from './collections/maintenance-jobs.ts';
import { inventoryServerCollection } from './collections/inventory.ts';
import { flightsServerCollection } from './collections/flights.ts';
import { notificationsServerCollection } from './collections/notifications.ts';
import { newsServerCollection } from './collections/news.ts';
import { personalServerCollection } from './collections/personal.ts';
import { registerCollection } from './registry.ts';

/** The server side of every shared collection; areas register theirs the same way. */
registerCollection(referenceServerCollection);
registerCollection(usersServerCollection);
registerCollection(aircraftServerCollection);
registerCollection(commandsServerCollection);
registerCollection(outcomesServerCollection);
registerCollection(aircraftReportsServerCollection);
registerCollection(maintenanceJobsServerCollection);
registerCollection(inventoryServerCollection);
registerCollection(flightsServerCollection);
registerCollection(notificationsServerCollection);
registerCollection(newsServerCollection);
registerCollection(personalServerCollection);

export { registerCollection } from './registry.ts';
export { registerCommand, CommandRejected } from './commands.ts';
