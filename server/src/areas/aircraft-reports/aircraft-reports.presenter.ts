import type { AircraftReportDoc } from '@ops/shared';

/** The REST shape of one report: the collection's document split into the spec's wrappers. */
export function presentReport(
  doc: AircraftReportDoc,
  related: { registration?: string | null; reporter?: { name: string; surname: string } | null } = {},
) {
  const { MelItem, ...report } = doc;
  return {
    AircraftReport: report,
    MelItem,
    Aircraft: { id: doc.aircraft_id, registration: related.registration ?? null },
    User: related.reporter ? { id: doc.user_id, name: related.reporter.name, surname: related.reporter.surname } : null,
  };
}

/** A linked maintenance job in brief, as a report's view shows it. */
export const presentLinkedJob = (
  job: { id: string; name: string; status: string; start: number | null; crs_signed: number } | undefined,
) => (job ? { id: job.id, name: job.name, status: job.status, start: job.start, crs_signed: !!job.crs_signed } : null);
