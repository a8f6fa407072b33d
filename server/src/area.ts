import type { AlertSource } from './areas/company/alerts/sources.alerts.ts';
import { registerAlertSource } from './areas/company/alerts/alerts.service.ts';
import { registerUploadModel, type UploadModel } from './areas/uploads/attachments.service.ts';
import type { RouteDef } from './http/define-route.ts';
import { type Job, registerJob } from './jobs/scheduler.ts';
import type { SeedStep } from './seed/index.ts';
import { type CommandHandler, registerCommand } from './sync/commands.ts';
import { registerCollection, registerTombstones, type SyncPartDef } from './sync/registry.ts';

/**
 * What one area contributes, as values (docs/architecture.md, "How an area registers"). Each area folder
 * exports one in `<area>.area.ts`; `server/src/areas/index.ts` lists them in order and `registerAreas()`
 * hands each entry to its generic registry once. Modules of an area define; they never register on import.
 *
 * Table row types need no entry: `<area>.tables.ts` merges them into `DB` at compile time.
 */
export interface AreaDef {
  /** The area's folder name (server/src/areas/<name>/). */
  name: string;
  /** Its routes, in matching order (a sub-router per first path segment keeps this order). */
  routes?: readonly RouteDef[];
  /** Collections and record types it serves to devices (`defineCollection`, `recordType`), in order. */
  collections?: readonly SyncPartDef[];
  /** Its replicated tables whose deleted rows are only tombstones (purged after the retention horizon). */
  tombstones?: readonly string[];
  /** Decisions devices queue offline, decided once by the server. */
  commands?: readonly CommandHandler[];
  /** Periodic work. */
  jobs?: readonly Job[];
  /** Its contributions to /companies/alerts.json. */
  alerts?: readonly AlertSource[];
  /** Record models uploads may attach to (`model` → how to find the record). */
  uploadModels?: Readonly<Record<string, UploadModel>>;
  /** Its seed step; the order seeds run in is stated in server/src/areas/index.ts (SEED_ORDER). */
  seed?: SeedStep;
}

/** Registers everything one area lists with the generic registries (sync, commands, jobs, alerts, uploads). */
export function registerArea(area: AreaDef): void {
  for (const c of area.collections ?? []) registerCollection(c);
  for (const t of area.tombstones ?? []) registerTombstones(t);
  for (const c of area.commands ?? []) registerCommand(c);
  for (const j of area.jobs ?? []) registerJob(j);
  for (const a of area.alerts ?? []) registerAlertSource(a);
  for (const [model, def] of Object.entries(area.uploadModels ?? {})) registerUploadModel(model, def);
}
