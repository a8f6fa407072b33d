import { LEGACY_COLLECTIONS } from '@ops/shared';

/**
 * A record type's view of the sync protocol for tests written against the
 * record types (`aircraft`, `users`, `personal`...): which area collection
 * carries it, which `type` values are its, and how its documents convert.
 * The protocol under test is the real one (area collections); only the test's
 * reading of the documents is translated. Deletion stand-ins of rows the
 * caller may no longer see carry no type (`''`, no content) and belong to
 * every view.
 */
export interface RecordView {
  collection: string;
  owns(doc: Record<string, unknown>): boolean;
  toRecord(doc: Record<string, unknown>): Record<string, unknown>;
  toStored(doc: Record<string, unknown>): Record<string, unknown>;
}

const LEGACY = new Map(LEGACY_COLLECTIONS.map((l) => [l.def.name, l]));

export function recordView(name: string): RecordView {
  const l = LEGACY.get(name);
  if (!l) return { collection: name, owns: () => true, toRecord: (d) => d, toStored: (d) => d };
  return {
    collection: l.into,
    owns: (d) => l.types.includes(String(d.type)) || (d._deleted === true && d.type === ''),
    toRecord: (d) => l.back(d),
    toStored: (d) => l.convert(d),
  };
}
