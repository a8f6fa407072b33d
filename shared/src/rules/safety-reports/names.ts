/**
 * Display names of the safety rule's codes (the codes stay in the data), shared by
 * the screen and the server's PDF and spreadsheet so both say the same word.
 * The ids are written out so the catalogue check sees them used.
 */
import type { MessageId, Translate } from '../../i18n/index.ts';

export const STATUS_NAMES: Record<string, MessageId> = {
  draft: 'safety-reports.statusDraft',
  open: 'safety-reports.statusOpen',
  reviewed: 'safety-reports.statusReviewed',
  closed: 'safety-reports.statusClosed',
  published: 'safety-reports.statusPublished',
};
export const SEVERITY_NAMES: Record<string, MessageId> = {
  incident: 'safety-reports.sevIncident',
  accident: 'safety-reports.sevAccident',
  information: 'safety-reports.sevInformation',
  hazard: 'safety-reports.sevHazard',
};
export const TYPE_NAMES: Record<string, MessageId> = {
  OCCURRENCE: 'safety-reports.typeOccurrence',
  INFORMATION: 'safety-reports.typeInformation',
};
export const PHASE_NAMES: Record<string, MessageId> = {
  APR: 'safety-reports.phaseAPR',
  EMG: 'safety-reports.phaseEMG',
  ENR: 'safety-reports.phaseENR',
  ICL: 'safety-reports.phaseICL',
  LDG: 'safety-reports.phaseLDG',
  MNV: 'safety-reports.phaseMNV',
  PIM: 'safety-reports.phasePIM',
  PBT: 'safety-reports.phasePBT',
  STD: 'safety-reports.phaseSTD',
  TOF: 'safety-reports.phaseTOF',
  TXI: 'safety-reports.phaseTXI',
  UND: 'safety-reports.phaseUND',
  UNK: 'safety-reports.phaseUNK',
};
export const PROBABILITY_NAMES: Record<string, MessageId> = {
  likely: 'safety-reports.probLikely',
  probable: 'safety-reports.probProbable',
  possible: 'safety-reports.probPossible',
  improbable: 'safety-reports.probImprobable',
  remote: 'safety-reports.probRemote',
};
export const RISK_SEVERITY_NAMES: Record<string, MessageId> = {
  catastrophic: 'safety-reports.sevCatastrophic',
  hazardous: 'safety-reports.sevHazardous',
  critical: 'safety-reports.sevCritical',
  marginal: 'safety-reports.sevMarginal',
  negligible: 'safety-reports.sevNegligible',
};
export const TOLERABILITY_NAMES: Record<string, MessageId> = {
  intolerable: 'safety-reports.tolIntolerable',
  tolerable: 'safety-reports.tolTolerable',
  acceptable: 'safety-reports.tolAcceptable',
};
export const DAMAGE_NAMES: Record<string, MessageId> = {
  none: 'safety-reports.damageNone',
  minimal: 'safety-reports.damageMinimal',
  important: 'safety-reports.damageImportant',
  catastrophic: 'safety-reports.damageCatastrophic',
};
export const PERSONAL_DAMAGE_NAMES: Record<string, MessageId> = {
  none: 'safety-reports.injuryNone',
  injuries: 'safety-reports.injuryLight',
  serious: 'safety-reports.injurySerious',
  casualties: 'safety-reports.injuryFatal',
};

/** A code's display name, or the code itself when the catalogue does not know it. */
export const named = (t: Translate, names: Record<string, MessageId>, code: string | null | undefined): string => {
  const id = code ? names[code] : undefined;
  return id ? t(id) : (code ?? '');
};
export const statusName = (t: Translate, k: string) => named(t, STATUS_NAMES, k);
export const severityName = (t: Translate, k: string) => named(t, SEVERITY_NAMES, k);
