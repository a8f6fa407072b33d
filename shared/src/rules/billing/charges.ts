import { type MessageId, type Translate, translator } from '../../i18n/index.ts';
import type { ChargeLineWords } from './descriptions.ts';
import { netFor, taxOf } from './money.ts';

/** Seat classifications (Part B 2.6) that bill their holder instead of the PIC. */
export const BILLED_SEATS: readonly string[] = ['dual', 'picus'];
/** Seat classifications that make their holder the flight's instructor (`sup` is not one). */
export const INSTRUCTOR_SEATS: readonly string[] = ['fi', 'cri', 'iri', 'fifi', 'sfi', 'tri', 'exa'];

export const ENTRY_KINDS = ['flight', 'instructor', 'package', 'payment', 'adjustment', 'reversal'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** The names people read for the entry kinds (screens and the statement PDF; the kinds stay codes in data). */
export const KIND_LABELS: Record<EntryKind, MessageId> = {
  flight: 'billing.kindFlight',
  instructor: 'billing.kindInstructor',
  package: 'billing.kindPackage',
  payment: 'billing.kindPayment',
  adjustment: 'billing.kindAdjustment',
  reversal: 'billing.kindReversal',
};

/** An entry kind's name in the language of `t` (English without one); an unknown kind shows its code. */
export function kindLabel(kind: string, t: Translate = translator('en')): string {
  const id = (KIND_LABELS as Record<string, MessageId | undefined>)[kind];
  return id ? t(id) : kind;
}

export interface BilledFlight {
  status: string;
  aircraft_id: string | null;
  pic_id: string | null;
  sic_id: string | null;
  supervisor_id: string | null;
  block_time: number;
  flight_time: number;
}

/** The flight type's classification of each seat (null: no flight type). */
export interface Seats {
  pic: string;
  sic: string;
  supervisor: string;
}

export interface ChargeInput {
  flight: BilledFlight;
  seats: Seats | null;
  /** Users of the company with `User.billing` true among the crew. */
  billed: ReadonlySet<string>;
  /** Cents per hour by aircraft id and by instructor user id. */
  aircraftRates: ReadonlyMap<string, number>;
  instructorRates: ReadonlyMap<string, number>;
  basis: 'block' | 'flight';
  /** Tax in hundredths of a percent. */
  taxBp: number;
  /** Prepaid seconds of the charged user: for one aircraft (`aircraft_id`) or any (`null`). */
  pools: ReadonlyArray<{ aircraft_id: string | null; seconds: number }>;
}

/** One entry a flight books: a money charge (amount, tax negative) or a package use (amount 0, package_seconds negative). */
export interface ChargeLine {
  kind: 'flight' | 'instructor' | 'package';
  amount: number;
  tax: number;
  seconds: number;
  package_seconds: number;
  aircraft_id: string | null;
  /** The line's words; the stored description adds the registration and date (descriptions.ts). */
  description: ChargeLineWords;
}

export interface FlightCharges {
  userId: string | null;
  lines: ChargeLine[];
}

/** Who pays a flight: the holder of a `dual` or `picus` seat, else the PIC; nobody when that person is not billed. */
export function chargedUser(f: BilledFlight, seats: Seats | null, billed: ReadonlySet<string>): string | null {
  let who = f.pic_id;
  if (seats) {
    const byClass: Array<[string, string | null]> = [
      [seats.pic, f.pic_id],
      [seats.sic, f.sic_id],
      [seats.supervisor, f.supervisor_id],
    ];
    const student = byClass.find(([c, u]) => u && BILLED_SEATS.includes(c));
    if (student) who = student[1];
  }
  return who && billed.has(who) ? who : null;
}

/** The instructor of a flight: the first seat (PIC, SIC, supervisor) logging an instructor classification. */
export function instructorOf(f: BilledFlight, seats: Seats | null): string | null {
  if (!seats) return null;
  const byClass: Array<[string, string | null]> = [
    [seats.pic, f.pic_id],
    [seats.sic, f.sic_id],
    [seats.supervisor, f.supervisor_id],
  ];
  return byClass.find(([c, u]) => u && INSTRUCTOR_SEATS.includes(c))?.[1] ?? null;
}

function money(
  kind: 'flight' | 'instructor',
  centsPerHour: number,
  seconds: number,
  taxBp: number,
  aircraftId: string | null,
  description: ChargeLineWords,
): ChargeLine | null {
  const net = netFor(centsPerHour, seconds);
  if (net === 0) return null;
  const tax = taxOf(net, taxBp);
  return { kind, amount: -(net + tax), tax: -tax, seconds, package_seconds: 0, aircraft_id: aircraftId, description };
}

/**
 * What a flight costs now (CONTRACT 6): nothing unless LANDED with a billed
 * person; prepaid hours for the aircraft first (its own packages, then
 * any-aircraft ones), the rest at the aircraft rate; the instructor's rate
 * for the whole billed time. The instructor does not pay for their own
 * instruction (when they are the charged person, there is no instructor line).
 */
export function flightCharges(input: ChargeInput): FlightCharges {
  const f = input.flight;
  if (f.status !== 'LANDED') return { userId: null, lines: [] };
  const userId = chargedUser(f, input.seats, input.billed);
  if (!userId) return { userId: null, lines: [] };
  const seconds = Math.max(0, Math.trunc(input.basis === 'flight' ? f.flight_time : f.block_time));
  const lines: ChargeLine[] = [];
  const aircraftRate = f.aircraft_id ? input.aircraftRates.get(f.aircraft_id) : undefined;
  if (f.aircraft_id && aircraftRate !== undefined) {
    let left = seconds;
    const pools = [
      ...input.pools.filter((p) => p.aircraft_id === f.aircraft_id),
      ...input.pools.filter((p) => p.aircraft_id === null),
    ];
    for (const p of pools) {
      const use = Math.min(left, Math.max(0, p.seconds));
      if (use <= 0) continue;
      lines.push({
        kind: 'package',
        amount: 0,
        tax: 0,
        seconds: -use,
        package_seconds: -use,
        aircraft_id: p.aircraft_id,
        description: 'Prepaid hours used',
      });
      left -= use;
    }
    const line = left > 0 ? money('flight', aircraftRate, left, input.taxBp, f.aircraft_id, 'Aircraft') : null;
    if (line) lines.push(line);
  }
  const instructor = instructorOf(f, input.seats);
  const instructorRate = instructor && instructor !== userId ? input.instructorRates.get(instructor) : undefined;
  if (instructorRate !== undefined) {
    const line = money('instructor', instructorRate, seconds, input.taxBp, f.aircraft_id, 'Instructor');
    if (line) lines.push(line);
  }
  return { userId, lines };
}
