/**
 * The schedule's data on this device: bookings (with the requests still waiting
 * for the server), aircraft, flight types, operating hours, instructors and open
 * MEL/CDL items, and `book`, the one way a booking or move is made.
 */
import {
  type AircraftDoc,
  type AircraftReportDoc,
  type BookingDoc,
  type CommandDoc,
  type ReferenceDoc,
  uuidv7,
} from '@ops/shared';
import { type HoursRow, resolveDay } from '@ops/shared/rules/company/operating-hours';
import {
  aircraftBlockedFor,
  aircraftBlockedMessage,
  melItemLabel,
  type TimedMelItem,
} from '@ops/shared/rules/schedules/booking';
import { isSelfBooker } from '@ops/shared/rules/schedules/policy';
import { useMemo, useState } from 'react';
import { endOfDay, zonedToUnix } from '../../format.ts';
import {
  fullName,
  useCommands,
  useCompany,
  useDismissed,
  useDocs,
  useNow,
  useUsers,
  useWorkspace,
} from '../../hooks.ts';
import { supersededRejections } from '../../refusals.ts';
import { cancelRefusal, isBookableInstructor } from '@ops/shared/rules/schedules/policy';
import { hoursRefusal, pilotRefusal, timeRefusal } from '@ops/shared/rules/schedules/sanity';
import { aircraftBlockers, blockedRefusal, groundsAircraft } from '@ops/shared/rules/aircraft-reports/blockers';
import { openItems } from '../aircraft-reports/techlog.ts';
import { deviceBookingRefusal, useDeviceDuty } from '../duty/device-duty.ts';
import type { BookArgs } from './board.ts';
import { useT } from '../../i18n.tsx';
import type { Translate } from '@ops/shared/i18n/index';

export interface TypeInfo {
  id: string;
  name: string;
  color: string | null;
  booking: boolean;
}

/** A booking shown on the board: the server's, or a request waiting for it. */
export type ShownBooking = BookingDoc | (BookingDoc & { pending: true });

function useFlightTypes(): TypeInfo[] {
  const { docs } = useDocs<ReferenceDoc>('reference', { selector: { type: 'flight_type' } });
  return useMemo(
    () =>
      docs
        .map((d) => {
          const t = (d.data?.FlightType ?? d.data ?? {}) as Record<string, unknown>;
          return {
            id: String(t.id ?? d.id),
            name: String(t.name ?? d.name),
            color: typeof t.color === 'string' ? t.color : null,
            booking: t.booking === true,
            deleted: t.deleted === true,
          };
        })
        .filter((t) => !t.deleted)
        .sort((a, b) => a.name.localeCompare(b.name)),
    [docs],
  );
}

function useHoursRows(): HoursRow[] {
  const { docs } = useDocs<ReferenceDoc>('reference', { selector: { type: 'operating_hours' } });
  return useMemo(() => {
    const rows = docs[0]?.data?.rows;
    return Array.isArray(rows) ? (rows as HoursRow[]) : [];
  }, [docs]);
}

/** Open windows (unix) of a base on a company day, from the offline operating-hours document. */
export function openWindows(rows: readonly HoursRow[], baseId: string | null, iso: string, zone: string) {
  const day = resolveDay(rows, baseId, iso);
  const [y, m, d] = iso.split('-').map(Number);
  return day.windows.map((w) => ({
    start: zonedToUnix(
      { year: y, month: m, day: d, hour: Math.floor(w.start_minute / 60), minute: w.start_minute % 60 },
      zone,
    ),
    end:
      w.end_minute >= 1440
        ? (endOfDay(iso, zone) ?? 0)
        : zonedToUnix(
            { year: y, month: m, day: d, hour: Math.floor(w.end_minute / 60), minute: w.end_minute % 60 },
            zone,
          ),
  }));
}

/** Open MEL/CDL items of each aircraft as the booking rule takes them, recomputed on the device (techlog rules) so time running out offline counts. */
function useMelItems(
  aircraft: readonly AircraftDoc[],
  reports: readonly AircraftReportDoc[],
  commands: readonly CommandDoc[],
  now: number,
  zone: string,
  t: Translate,
): Map<string, TimedMelItem[]> {
  return useMemo(() => {
    const byId = new Map(aircraft.map((a) => [a.id, a]));
    const out = new Map<string, TimedMelItem[]>();
    for (const v of openItems(reports, byId, commands, now, zone)) {
      if (!v.item || v.report.status === 'CLOSED' || v.pending === 'close') continue;
      const list = out.get(v.report.aircraft_id) ?? [];
      list.push({
        label: melItemLabel(
          {
            type: v.report.type,
            ata_chapter: v.report.ata_chapter,
            category: v.item.category ?? null,
            title: v.report.title,
          },
          t,
        ),
        expiredAtStart: v.status === 'EXPIRED',
        expires: v.deadline?.kind === 'time' ? v.deadline.expires : null,
      });
      out.set(v.report.aircraft_id, list);
    }
    return out;
  }, [aircraft, reports, commands, now, zone, t]);
}

/** Everything the schedule screens read, decided on the device, and `book`. */
export function useSchedules() {
  // The grounded sentences shown on the board and the lesson flow are in the reader's language.
  const t = useT();
  const ws = useWorkspace();
  const me = ws.user.id;
  const self = isSelfBooker(ws.user.user_group_id);
  const { display, flags: setting } = useCompany();
  // The company's booking horizon (CONTRACT 5), from the replicated company document; null: the default.
  const horizonDays = typeof setting.booking_horizon_days === 'number' ? setting.booking_horizon_days : null;
  const zone = display.companyZone;
  const { docs: bookings } = useDocs<BookingDoc>('bookings', { selector: { status: 'BOOKED' } });
  const { docs: aircraft } = useDocs<AircraftDoc>('aircraft');
  const users = useUsers();
  const types = useFlightTypes();
  const hours = useHoursRows();
  const { docs: commands } = useCommands();
  const now = useNow();
  /** A booking refused on this device before queueing (rule 3 decided offline by the shared rule). */
  const [localRefusal, setLocalRefusal] = useState<{ code: string; message: string; action?: 'cancel' } | null>(null);
  const { docs: reports } = useDocs<AircraftReportDoc>('aircraft_report', { selector: { status: { $ne: 'CLOSED' } } });
  const melItems = useMelItems(aircraft, reports, commands, now, zone, t);
  /**
   * Why each grounded aircraft cannot be booked (issue 28 item 1): the server's
   * booking refusal, by the same shared rule over the open reports this device holds.
   */
  const grounded = useMemo(() => {
    const byAircraft = new Map<string, AircraftReportDoc[]>();
    for (const r of reports) {
      if (r.status === 'CLOSED' || !groundsAircraft(r)) continue;
      byAircraft.set(r.aircraft_id, [...(byAircraft.get(r.aircraft_id) ?? []), r]);
    }
    const regOf = new Map(aircraft.map((a) => [a.id, a.registration]));
    const why = new Map<string, string>();
    for (const [id, open] of byAircraft) {
      const blockers = aircraftBlockers(
        open.map((r) => ({ ...r, created: null, mel: null })),
        Number.POSITIVE_INFINITY,
        t,
      );
      const sentence = blockedRefusal(regOf.get(id) ?? t('aircraft-reports.theAircraft'), 'booked', blockers, t);
      if (sentence) why.set(id, sentence);
    }
    return why;
  }, [reports, aircraft, t]);
  const duty = useDeviceDuty();

  const active = useMemo(
    () => aircraft.filter((a) => a.active !== false).sort((a, b) => a.registration.localeCompare(b.registration)),
    [aircraft],
  );
  const registration = useMemo(() => new Map(aircraft.map((a) => [a.id, a.registration])), [aircraft]);
  const typeName = useMemo(() => new Map(types.map((t) => [t.id, t])), [types]);
  const instructors = useMemo(() => {
    const known = [...users.values()].filter((u) => isBookableInstructor(u.user_group_id));
    if (known.length) return known;
    // Roles are hidden from pilots and students: offer the instructors of their own bookings and their supervisor.
    const supervisor = users.get(me)?.supervisor_id ?? null;
    const ids = new Set([...bookings.map((b) => b.instructor_id), supervisor].filter((x): x is string => !!x));
    return [...ids].map((id) => users.get(id)).filter((u): u is NonNullable<typeof u> => !!u);
  }, [users, bookings, me]);
  const bookCommands = useMemo(
    () => commands.filter((c) => c.name === 'schedule.book' || c.name === 'schedule.cancel'),
    [commands],
  );
  const pending = bookCommands.filter((c) => c.status === 'pending' && c.name === 'schedule.book');
  /** Bookings whose cancel waits for the server: shown struck through, no longer offered to cancel. */
  const cancelling = useMemo(
    () =>
      new Set(
        bookCommands
          .filter((c) => c.name === 'schedule.cancel' && c.status === 'pending')
          .map((c) => String((c.args as { id?: unknown }).id)),
      ),
    [bookCommands],
  );
  const dismissed = useDismissed();
  // A refusal goes away when dismissed, or by itself once a later booking is accepted.
  const superseded = useMemo(() => supersededRejections(bookCommands), [bookCommands]);
  const refused = bookCommands
    .filter((c) => c.status === 'rejected' && !dismissed.has(c.id) && !superseded.has(c.id))
    .slice(0, 5);

  const pendingDocs: Array<BookingDoc & { pending: true }> = pending.map((c) => {
    const a = c.args as Record<string, unknown>;
    return {
      id: c.id,
      aircraft_id: String(a.aircraft_id),
      pilot_id: String(a.pilot_id),
      instructor_id: (a.instructor_id as string | null) ?? null,
      flight_type_id: String(a.flight_type_id),
      base_id: null,
      start: Number(a.start),
      end: Number(a.end),
      status: 'PENDING',
      flight_id: null,
      remarks: null,
      user_id: me,
      departure_airport: null,
      landing_airport: null,
      modified: 0,
      pending: true,
    };
  });
  // A pending move shows at its new place only (waiting); the server's copy stays hidden until it decides.
  const moving = new Set(
    pending.map((c) => (c.args as { id?: unknown }).id).filter((x): x is string => typeof x === 'string'),
  );
  const shown: ShownBooking[] = [...bookings.filter((b) => !moving.has(b.id)), ...pendingDocs];

  /**
   * Every booking and move goes here: rule 3 (an aircraft blocked by an open
   * MEL/CDL item) is decided on the device with the shared rule, so it is
   * refused offline too with the server's code and words; the rest is the
   * `schedule.book` command, decided once by the server.
   */
  const book = async (args: BookArgs): Promise<boolean> => {
    // Sanity (issue 28), the server's shared checks on the device: pilot seat, past/horizon, operating hours.
    const sane = sanityRefusal(args);
    if (sane) {
      setLocalRefusal(sane);
      return false;
    }
    const blocked = aircraftBlockedFor(melItems.get(args.aircraft_id) ?? [], args);
    if (blocked) {
      setLocalRefusal({
        code: 'AIRCRAFT_BLOCKED',
        message: aircraftBlockedMessage(
          registration.get(args.aircraft_id) ?? t('aircraft-reports.theAircraft'),
          blocked,
          t,
        ),
      });
      return false;
    }
    const grounding = grounded.get(args.aircraft_id);
    if (grounding) {
      setLocalRefusal({ code: 'AIRCRAFT_BLOCKED', message: grounding });
      return false;
    }
    // Duty hook (issue 30): the shared duty rule on the device's data; the server re-decides on push.
    const dutyStop = deviceBookingRefusal(duty, {
      id: 'id' in args ? args.id : undefined,
      aircraft_id: args.aircraft_id,
      pilot_id: args.pilot_id,
      instructor_id: args.instructor_id ?? null,
      start: args.start,
      end: args.end,
    });
    if (dutyStop) {
      setLocalRefusal({ code: dutyStop.code, message: dutyStop.message });
      return false;
    }
    setLocalRefusal(null);
    await ws.run('schedule.book', args);
    return true;
  };

  /** The sanity checks of `rules/schedules/sanity.ts` on this device's data; null when the server may decide. */
  const sanityRefusal = (args: BookArgs): { code: string; message: string } | null => {
    const who = users.get(args.pilot_id);
    const seat = who ? pilotRefusal({ name: fullName(who), pilot: who.pilot, active: who.active !== false }, t) : null;
    if (seat) return seat;
    const current = 'id' in args && args.id ? bookings.find((b) => b.id === args.id) : undefined;
    const nowSec = Math.floor(Date.now() / 1000);
    const early = timeRefusal({ span: args, now: nowSec, zone, keptStart: current?.start ?? null, horizonDays, t });
    if (early) return early;
    const baseId = aircraft.find((a) => a.id === args.aircraft_id)?.base_id ?? null;
    return hoursRefusal({ rows: hours, baseId, span: args, zone, t });
  };

  /**
   * Cancelling a booking (`schedule.cancel`, decided once by the server);
   * refused here at once when the policy says no (another's, or under way).
   */
  const cancel = async (b: Pick<BookingDoc, 'id' | 'pilot_id' | 'user_id' | 'start'>): Promise<boolean> => {
    const no = cancelRefusal({ userId: me, role: ws.user.user_group_id }, b, Math.floor(Date.now() / 1000));
    if (no) {
      setLocalRefusal({ ...no, action: 'cancel' });
      return false;
    }
    setLocalRefusal(null);
    await ws.run('schedule.cancel', { id: b.id });
    return true;
  };

  /** A self-booker's lesson: a new booking for oneself. */
  const bookLesson = async (args: Omit<BookArgs, 'new_id' | 'id' | 'pilot_id'>): Promise<void> => {
    await book({ new_id: uuidv7(), pilot_id: me, ...args });
  };

  return {
    me,
    role: ws.user.user_group_id,
    self,
    display,
    zone,
    now,
    users,
    bookings,
    shown,
    active,
    registration,
    types,
    typeName,
    hours,
    instructors,
    melItems,
    grounded,
    pending,
    refused,
    cancelling,
    localRefusal,
    book,
    cancel,
    bookLesson,
  };
}

export type ScheduleData = ReturnType<typeof useSchedules>;
