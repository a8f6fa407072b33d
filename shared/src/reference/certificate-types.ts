/**
 * Catalog of pilot certificate types (Part A 2.10 `UserCertificate.type`,
 * Part B 2.6 `RequiredCertificate.certificate_type`). Shipped as a constant so
 * the server, offline clients and flight-type requirements agree on the keys
 * without replicating them. Keys are stable identifiers: never rename one,
 * add a new key instead.
 */

export const CERTIFICATE_KINDS = ['licence', 'rating', 'medical'] as const;
export type CertificateKind = (typeof CERTIFICATE_KINDS)[number];

export const CERTIFICATE_AUTHORITIES = ['EASA', 'FAA'] as const;
export type CertificateAuthority = (typeof CERTIFICATE_AUTHORITIES)[number];

export interface CertificateType {
  key: string;
  name: string;
  kind: CertificateKind;
  authority: CertificateAuthority;
}

const easa = (key: string, name: string, kind: CertificateKind): CertificateType => ({
  key,
  name,
  kind,
  authority: 'EASA',
});
const faa = (key: string, name: string, kind: CertificateKind): CertificateType => ({
  key,
  name,
  kind,
  authority: 'FAA',
});

export const CERTIFICATE_TYPES: readonly CertificateType[] = [
  // EASA Part-FCL licences
  easa('LAPL', 'Light Aircraft Pilot Licence (LAPL)', 'licence'),
  easa('SPL', 'Sailplane Pilot Licence (SPL)', 'licence'),
  easa('BPL', 'Balloon Pilot Licence (BPL)', 'licence'),
  easa('PPL', 'Private Pilot Licence (PPL)', 'licence'),
  easa('CPL', 'Commercial Pilot Licence (CPL)', 'licence'),
  easa('MPL', 'Multi-crew Pilot Licence (MPL)', 'licence'),
  easa('ATPL', 'Airline Transport Pilot Licence (ATPL)', 'licence'),
  // EASA class, type and other ratings
  easa('SEP', 'Single-engine piston class rating (SEP)', 'rating'),
  easa('MEP', 'Multi-engine piston class rating (MEP)', 'rating'),
  easa('SET', 'Single-engine turbine class rating (SET)', 'rating'),
  easa('ME', 'Multi-engine rating (ME)', 'rating'),
  easa('TR', 'Type rating (TR)', 'rating'),
  easa('IR', 'Instrument rating (IR)', 'rating'),
  easa('BIR', 'Basic instrument rating (BIR)', 'rating'),
  easa('NIGHT', 'Night rating', 'rating'),
  easa('MCC', 'Multi-crew cooperation (MCC)', 'rating'),
  easa('AEROBATIC', 'Aerobatic rating', 'rating'),
  easa('TOWING', 'Sailplane and banner towing rating', 'rating'),
  easa('MOUNTAIN', 'Mountain rating', 'rating'),
  easa('LANG', 'Language proficiency endorsement', 'rating'),
  // EASA instructor and examiner certificates
  easa('FI', 'Flight instructor (FI)', 'rating'),
  easa('CRI', 'Class rating instructor (CRI)', 'rating'),
  easa('IRI', 'Instrument rating instructor (IRI)', 'rating'),
  easa('TRI', 'Type rating instructor (TRI)', 'rating'),
  easa('SFI', 'Synthetic flight instructor (SFI)', 'rating'),
  easa('MCCI', 'Multi-crew cooperation instructor (MCCI)', 'rating'),
  easa('FE', 'Flight examiner (FE)', 'rating'),
  easa('CRE', 'Class rating examiner (CRE)', 'rating'),
  easa('IRE', 'Instrument rating examiner (IRE)', 'rating'),
  easa('TRE', 'Type rating examiner (TRE)', 'rating'),
  // EASA Part-MED
  easa('MED_CLASS1', 'Class 1 medical certificate', 'medical'),
  easa('MED_CLASS2', 'Class 2 medical certificate', 'medical'),
  easa('MED_LAPL', 'LAPL medical certificate', 'medical'),
  // FAA 14 CFR part 61 certificates
  faa('FAA_STUDENT', 'FAA Student Pilot certificate', 'licence'),
  faa('FAA_SPORT', 'FAA Sport Pilot certificate', 'licence'),
  faa('FAA_RECREATIONAL', 'FAA Recreational Pilot certificate', 'licence'),
  faa('FAA_PRIVATE', 'FAA Private Pilot certificate', 'licence'),
  faa('FAA_COMMERCIAL', 'FAA Commercial Pilot certificate', 'licence'),
  faa('FAA_ATP', 'FAA Airline Transport Pilot certificate', 'licence'),
  // FAA ratings and endorsements
  faa('FAA_INSTRUMENT', 'FAA Instrument rating', 'rating'),
  faa('FAA_ASEL', 'FAA Airplane single-engine land', 'rating'),
  faa('FAA_AMEL', 'FAA Airplane multi-engine land', 'rating'),
  faa('FAA_TYPE', 'FAA Type rating', 'rating'),
  faa('FAA_CFI', 'FAA Certificated Flight Instructor (CFI)', 'rating'),
  faa('FAA_CFII', 'FAA Certificated Flight Instructor, Instrument (CFII)', 'rating'),
  faa('FAA_MEI', 'FAA Multi-Engine Instructor (MEI)', 'rating'),
  faa('FAA_FLIGHT_REVIEW', 'FAA Flight review (61.56)', 'rating'),
  faa('FAA_HIGH_PERFORMANCE', 'FAA High-performance endorsement', 'rating'),
  faa('FAA_COMPLEX', 'FAA Complex airplane endorsement', 'rating'),
  faa('FAA_TAILWHEEL', 'FAA Tailwheel endorsement', 'rating'),
  // FAA medical certification
  faa('FAA_MED_1', 'FAA First-class medical', 'medical'),
  faa('FAA_MED_2', 'FAA Second-class medical', 'medical'),
  faa('FAA_MED_3', 'FAA Third-class medical', 'medical'),
  faa('FAA_BASICMED', 'FAA BasicMed', 'medical'),
];

const BY_KEY = new Map(CERTIFICATE_TYPES.map((t) => [t.key, t]));

export function getCertificateType(key: string): CertificateType | null {
  return BY_KEY.get(key) ?? null;
}

export const isCertificateType = (key: unknown): key is string => typeof key === 'string' && BY_KEY.has(key);
