import { aircraftCollection } from './aircraft.ts';
import { type AircraftReportDoc, aircraftReportsCollection } from './aircraft-reports.ts';
import { areaCollection } from './area.ts';
import { inventoryCollection } from './inventory.ts';
import { maintenanceJobsCollection } from './maintenance-jobs.ts';
import type { CollectionDef, JsonSchemaProp } from './types.ts';

/**
 * An aircraft report as the `fleet` collection carries it: the report's own
 * `type` (DEFECT, MEL, CDL...) is `report_type`, since `type` names the record type.
 */
export type FleetReportDoc = Omit<AircraftReportDoc, 'type'> & { type: 'aircraft_report'; report_type: string };

export const toFleetReport = (doc: AircraftReportDoc): FleetReportDoc => {
  const { type, ...rest } = doc;
  return { ...rest, type: 'aircraft_report', report_type: type };
};

/** The report in its REST shape (`type` = DEFECT, MEL...), as screens and the shared rules read it. */
export const fromFleetReport = (doc: FleetReportDoc): AircraftReportDoc => {
  const { type: _record, report_type, ...rest } = doc;
  return { ...rest, type: report_type };
};

const { type: reportType, ...reportProps } = aircraftReportsCollection.schema.properties;
export const fleetReportRecord: CollectionDef<FleetReportDoc> = {
  ...(aircraftReportsCollection as unknown as CollectionDef<FleetReportDoc>),
  schema: {
    properties: {
      ...reportProps,
      report_type: reportType as JsonSchemaProp,
      type: { type: 'string', maxLength: 32 },
    } as CollectionDef<FleetReportDoc>['schema']['properties'],
    required: aircraftReportsCollection.schema.required.map((f) =>
      f === 'type' ? 'report_type' : f,
    ) as CollectionDef<FleetReportDoc>['schema']['required'],
  },
};

/** Record types of `fleet`. */
export const FLEET_TYPES = {
  aircraft: 'aircraft',
  report: 'aircraft_report',
  job: 'maintenance_job',
  part: 'inventory_part',
} as const;

/** The fleet area offline: aircraft, their technical log (reports with MEL/CDL items), maintenance jobs and the parts inventory. */
export const fleetCollection = areaCollection({
  name: 'fleet',
  version: 0,
  parts: [
    { types: [FLEET_TYPES.aircraft], def: aircraftCollection },
    { types: [FLEET_TYPES.report], def: fleetReportRecord },
    { types: [FLEET_TYPES.job], def: maintenanceJobsCollection },
    { types: [FLEET_TYPES.part], def: inventoryCollection },
  ],
});
