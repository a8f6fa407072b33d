/**
 * Readiness on the device (issue 31): the shared rule over what the device
 * holds. The policy is the replicated `readiness` reference document (with
 * the members of pilot groups that have their own minimums); the last
 * METAR/TAF is kept from the last online answer (localStorage). A fact the
 * device does not hold stays undefined, so its line says so in amber.
 */
import type { AircraftReportDoc, BookingDoc, FlightDoc, PersonalDoc, ReferenceDoc } from '@ops/shared';
import { aircraftBlockers } from '@ops/shared/rules/aircraft-reports/blockers';
import { toCents } from '@ops/shared/rules/billing/money';
import type { DutyCheckInput } from '@ops/shared/rules/duty/duty';
import type { HeldCertificate } from '@ops/shared/rules/flight-types/compliance';
import type { RequiredCertificatePair } from '@ops/shared/rules/flight-types/required-certificates';
import type { MaintenanceJobDoc } from '@ops/shared/collections/maintenance-jobs';
import {
  type ReadinessFacts,
  type ReadinessLine,
  type ReadinessSubject,
  readiness,
  type WeatherFacts,
} from '@ops/shared/rules/readiness/readiness';
import { type ReadinessSettings, readSettings } from '@ops/shared/rules/readiness/settings';
import { reportTime } from '@ops/shared/rules/readiness/weather';
import { type DeviceDuty, spansOf, yearFlightSeconds } from '../duty/device-duty.ts';

const WEATHER_KEY = 'ops.readiness.weather.';

/** The policy and group members of the replicated `readiness` reference document (null: not synced yet). */
export function policyOf(
  doc: ReferenceDoc | undefined,
): { settings: ReadinessSettings; pilotGroups: Record<string, string[]> } | null {
  if (!doc?.data) return null;
  const groups = doc.data.pilot_groups;
  return {
    settings: readSettings(doc.data.settings),
    pilotGroups: groups && typeof groups === 'object' ? (groups as Record<string, string[]>) : {},
  };
}

interface HeldWeather {
  metar: string | null;
  taf: string | null;
  fetched: number;
}
export function heldWeather(icao: string): HeldWeather | null {
  try {
    const raw = localStorage.getItem(WEATHER_KEY + icao);
    return raw ? (JSON.parse(raw) as HeldWeather) : null;
  } catch {
    return null;
  }
}
export const keepWeather = (icao: string, w: HeldWeather) =>
  localStorage.setItem(WEATHER_KEY + icao, JSON.stringify(w));

const asReport = (raw: string | null, fetched: number) => {
  if (!raw || raw === 'NIL') return null;
  const time = reportTime(raw, fetched);
  return time === null ? null : { raw, time };
};

export function weatherFactsOf(icao: string, held: HeldWeather | null): WeatherFacts | undefined {
  if (!held) return undefined;
  return {
    icao,
    metar: asReport(held.metar, held.fetched),
    taf: asReport(held.taf, held.fetched),
    fetched: held.fetched,
  };
}

export interface DeviceData {
  me: string;
  myRole: number;
  zone: string;
  now: number;
  settings: ReadinessSettings;
  flights: readonly FlightDoc[];
  bookings: readonly BookingDoc[];
  personal: readonly PersonalDoc[];
  flightTypes: readonly ReferenceDoc[];
  jobs: readonly MaintenanceJobDoc[];
  reports: readonly AircraftReportDoc[];
  duty: DeviceDuty;
  roles: ReadonlyMap<string, number>;
  /** Members of each pilot group with its own weather minimums (from the policy document). */
  pilotGroups: Readonly<Record<string, readonly string[]>>;
  weather: (icao: string) => HeldWeather | null;
}

/** The facts a device holds for this subject (pure: the unit test and the benchmark call it). */
export function deviceFacts(
  s: ReadinessSubject,
  d: DeviceData,
  except: { bookingId?: string; flightId?: string },
): ReadinessFacts {
  const facts: ReadinessFacts = { now: d.now, zone: d.zone, settings: d.settings };
  // Balance: only the signed-in person's account is on the device.
  if (s.billed_id === d.me) {
    const acc = d.personal.find((p) => p.type === 'account')?.data?.Account as
      | { balance?: number; currency?: string }
      | undefined;
    facts.balance = acc ? { balance: toCents(acc.balance ?? 0) ?? 0, currency: acc.currency ?? '' } : null;
  }
  const type = d.flightTypes.find((t) => t.id === s.flight_type_id);
  const required = (type?.data?.RequiredCertificate ?? null) as RequiredCertificatePair[] | null;
  if (required) {
    // Only the signed-in person's certificates are on the device: another seat with requirements is not held.
    const seats = { pic: s.pic_id, sic: s.sic_id, supervisor: s.supervisor_id };
    const others = required.some((r) => seats[r.role] && seats[r.role] !== d.me);
    if (!others) {
      const mine = d.personal
        .filter((p) => p.type === 'certificate')
        .map((p) => p.data?.UserCertificate as HeldCertificate | undefined)
        .filter((c): c is HeldCertificate => !!c);
      facts.certificates = { required, held: { [d.me]: mine } };
    }
  }
  if (s.pic_id) {
    facts.currency = {
      flights: d.flights
        .filter((f) => f.pic_id === s.pic_id && f.status === 'LANDED' && f.onblocks != null)
        .map((f) => ({
          onblocks: Number(f.onblocks),
          landings: Number(f.landings ?? 0),
          night_landings: Number(f.night_landings ?? 0),
          block_time: Number(f.block_time ?? 0),
        })),
    };
  }
  if (s.aircraft_id) {
    // Open jobs are replicated to every device; programme items by hours are the server's to project.
    facts.maintenance = {
      open_jobs: d.jobs
        .filter((j) => j.aircraft_id === s.aircraft_id && !j.crs_signed)
        .map((j) => ({ name: j.name, start: j.start ?? null })),
      plans: [],
    };
    facts.mel = {
      items: d.reports
        .filter((r) => r.aircraft_id === s.aircraft_id && r.MelItem && r.status !== 'CLOSED')
        .map((r) => {
          const m = r.MelItem as NonNullable<AircraftReportDoc['MelItem']>;
          const deadline = m.extended && m.extended_until ? m.extended_until : m.expires;
          return {
            label: `${r.type} ${r.ata_chapter ?? ''}${m.category ? ` (${m.category})` : ''} ${r.title}`.replace(
              /\s+/g,
              ' ',
            ),
            expired: m.status === 'EXPIRED' || (deadline !== null && deadline <= Math.max(d.now, s.start)),
            limitations: (m.MelItemLimitation ?? []).map((l) => l.code),
          };
        }),
      grounded: aircraftBlockers(
        d.reports.filter((r) => r.aircraft_id === s.aircraft_id).map((r) => ({ ...r, created: null, mel: null })),
        Math.max(d.now, s.start),
      )
        .filter((b) => b.kind === 'GROUNDED')
        .map((b) => ({ sentence: b.sentence, text: b.text })),
    };
  }
  const people: DutyCheckInput[] = [s.pic_id, s.sic_id, s.supervisor_id]
    .filter((x): x is string => !!x)
    .map((id) => ({
      name: d.duty.users.get(id) ? `${d.duty.users.get(id)?.name} ${d.duty.users.get(id)?.surname}` : 'This person',
      planned: { start: s.start, end: s.end },
      plannedFlightSeconds: s.aircraft_id && d.duty.simulators.has(s.aircraft_id) ? 0 : s.end - s.start,
      duty: spansOf(d.duty, id, except),
      yearFlightSeconds: yearFlightSeconds(d.duty, id, s.start),
      zone: d.duty.zone,
      limits: d.duty.limits,
    }));
  facts.duty = { people };
  if (s.departure_airport) facts.weather = weatherFactsOf(s.departure_airport, d.weather(s.departure_airport));
  const pic = s.pic_id;
  if (pic) facts.pic_groups = Object.keys(d.pilotGroups).filter((g) => d.pilotGroups[g]?.includes(pic));
  return facts;
}

/** The panel's answer offline. */
export function deviceReadiness(
  s: ReadinessSubject,
  d: DeviceData,
  except: { bookingId?: string; flightId?: string } = {},
): ReadinessLine[] {
  const subject = {
    ...s,
    pic_role: !s.pic_id ? null : s.pic_id === d.me ? d.myRole : (d.roles.get(s.pic_id) ?? null),
  };
  return readiness(subject, deviceFacts(subject, d, except));
}
