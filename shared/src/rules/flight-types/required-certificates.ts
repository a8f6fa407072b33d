import { isCertificateType } from '../../reference/certificate-types.ts';

/** Seats a flight type can require certificates for (Part B 2.6 `RequiredCertificate.role`). */
export const REQUIREMENT_SEATS = ['pic', 'sic', 'supervisor'] as const;
export type RequirementSeat = (typeof REQUIREMENT_SEATS)[number];

export interface RequiredCertificatePair {
  role: RequirementSeat;
  certificate_type: string;
}

/**
 * Part B 4.5: the posted `RequiredCertificate` list as it is saved. Invalid
 * roles, types that are not in the certificate type catalog and duplicate
 * pairs are ignored, not refused, so an old client's list still saves. Role
 * matching ignores case and surrounding spaces; type keys are exact catalog
 * keys (after trimming), because a certificate satisfies a requirement only
 * when its type is exactly the required one.
 */
export function cleanRequiredCertificates(list: readonly unknown[]): RequiredCertificatePair[] {
  const seen = new Set<string>();
  const out: RequiredCertificatePair[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const { role, certificate_type } = item as Record<string, unknown>;
    if (typeof role !== 'string' || typeof certificate_type !== 'string') continue;
    const seat = role.trim().toLowerCase();
    if (!(REQUIREMENT_SEATS as readonly string[]).includes(seat)) continue;
    const type = certificate_type.trim();
    if (!isCertificateType(type)) continue;
    const key = `${seat}\u0000${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ role: seat as RequirementSeat, certificate_type: type });
  }
  return out;
}
