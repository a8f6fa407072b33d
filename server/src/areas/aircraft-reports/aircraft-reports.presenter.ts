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
