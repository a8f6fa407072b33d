import type { CertificateRequirement, FlightTypeRow } from './flight-types.repository.ts';

export interface PresentedFlightType {
  FlightType: {
    id: string;
    name: string;
    color: string | null;
    booking: boolean;
    pic_flight_time: string;
    sic_flight_time: string;
    supervisor_flight_time: string;
    order: number;
    deleted: boolean;
    created: number;
    modified: number;
  };
  RequiredCertificate: Array<{ role: string; certificate_type: string }>;
}

/** Part B 2.6 record: `{FlightType, RequiredCertificate[]}`. */
export function presentFlightType(t: FlightTypeRow, reqs: readonly CertificateRequirement[] = []): PresentedFlightType {
  return {
    FlightType: {
      id: t.id,
      name: t.name,
      color: t.color,
      booking: !!t.booking,
      pic_flight_time: t.pic_flight_time,
      sic_flight_time: t.sic_flight_time,
      supervisor_flight_time: t.supervisor_flight_time,
      order: t.sort_order,
      deleted: !!t.deleted,
      created: t.created,
      modified: t.modified,
    },
    RequiredCertificate: reqs.map((r) => ({ role: r.role, certificate_type: r.certificate_type })),
  };
}
