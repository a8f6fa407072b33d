import { type AircraftDoc, type AircraftReportDoc, type BookingDoc, type CommandDoc, type ReferenceDoc, uuidv7 } from '@ops/shared';
import { type HoursRow, resolveDay } from '@ops/shared/rules/company/operating-hours';
import { aircraftBlockedFor, aircraftBlockedMessage, blockedFrom, isSelfBooker, melItemLabel, type TimedMelItem } from '@ops/shared/rules/schedules/booking';
import { type DragEvent, type FormEvent, useMemo, useState } from 'react';
import { type DisplaySettings, endOfDay, formatDateTime, formatTime, isoDateIn, zonedToUnix } from '../../format.ts';
import { fullName, useCommands, useCompany, useDocs, useNow, useUsers, useWorkspace } from '../../hooks.ts';
import { openItems } from '../../techlog.ts';
import { Badge, Empty, Field } from '../../ui.tsx';
import { deviceBookingRefusal, useDeviceDuty } from '../duty/device-duty.ts';
import './schedules.css';
import { allowedStarts, boardDays, bookingsOfDay, type BookArgs, DRAG_TYPE, droppedStart, movedArgs, placement, shiftDate, startOfDay, todayIn } from './board.ts';

const HOUR_LABELS = Array.from({ length: 16 }, (_, i) => String(6 + i).padStart(2, '0'));

interface TypeInfo {
  id: string;
  name: string;
  color: string | null;
  booking: boolean;
}

interface Draft {
  /** Set when moving or changing an existing booking (the same `schedule.book` command with its id). */
  id?: string;
  aircraft_id: string;
  pilot_id: string;
  instructor_id: string;
  flight_type_id: string;
  date: string;
  time: string;
  minutes: number;
  remarks: string;
}

interface Conflict {
  id: string;
  aircraft_id: string;
  start: number;
  end: number;
}

const conflictsOf = (details: unknown): Conflict[] => {
  const list = details && typeof details === 'object' ? (details as { conflicts?: unknown }).conflicts : null;
  return Array.isArray(list) ? (list as Conflict[]).filter((c) => c && typeof c.id === 'string') : [];
};

function useFlightTypes(): TypeInfo[] {
  const { docs } = useDocs<ReferenceDoc>('reference', { selector: { type: 'flight_type' } });
  return useMemo(
    () =>
      docs
        .map((d) => {
          const t = (d.data?.FlightType ?? d.data ?? {}) as Record<string, unknown>;
          return { id: String(t.id ?? d.id), name: String(t.name ?? d.name), color: typeof t.color === 'string' ? t.color : null, booking: t.booking === true, deleted: t.deleted === true };
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
function openWindows(rows: readonly HoursRow[], baseId: string | null, iso: string, zone: string) {
  const day = resolveDay(rows, baseId, iso);
  const [y, m, d] = iso.split('-').map(Number);
  return day.windows.map((w) => ({
    start: zonedToUnix({ year: y, month: m, day: d, hour: Math.floor(w.start_minute / 60), minute: w.start_minute % 60 }, zone),
    end: w.end_minute >= 1440 ? (endOfDay(iso, zone) ?? 0) : zonedToUnix({ year: y, month: m, day: d, hour: Math.floor(w.end_minute / 60), minute: w.end_minute % 60 }, zone),
  }));
}

/** The day and week board (office) and the "book a lesson" flow (self-bookers), both offline-first. */
export default function Schedules() {
  const ws = useWorkspace();
  const me = ws.user.id;
  const role = ws.user.user_group_id;
  const self = isSelfBooker(role);
  const { display } = useCompany();
  const zone = display.companyZone;
  const { docs: bookings } = useDocs<BookingDoc>('bookings', { selector: { status: 'BOOKED' } });
  const { docs: aircraft } = useDocs<AircraftDoc>('aircraft');
  const users = useUsers();
  const types = useFlightTypes();
  const hours = useHoursRows();
  const { docs: commands } = useCommands();
  const now = useNow();
  const [mode, setMode] = useState<'board' | 'lesson'>(self ? 'lesson' : 'board');
  const [view, setView] = useState<'day' | 'week'>('day');
  const [by, setBy] = useState<'aircraft' | 'instructor'>('aircraft');
  const [date, setDate] = useState(() => todayIn(zone));
  const [draft, setDraft] = useState<Draft | null>(null);
  /** A booking refused on this device before queueing (rule 3 decided offline by the shared rule). */
  const [localRefusal, setLocalRefusal] = useState<{ code: string; message: string } | null>(null);
  const { docs: reports } = useDocs<AircraftReportDoc>('aircraft_report', { selector: { status: { $ne: 'CLOSED' } } });
  const melItems = useMelItems(aircraft, reports, commands, now, zone);
  const duty = useDeviceDuty();

  const active = useMemo(() => aircraft.filter((a) => a.active !== false).sort((a, b) => a.registration.localeCompare(b.registration)), [aircraft]);
  const registration = useMemo(() => new Map(aircraft.map((a) => [a.id, a.registration])), [aircraft]);
  const typeName = useMemo(() => new Map(types.map((t) => [t.id, t])), [types]);
  const instructors = useMemo(() => {
    const known = [...users.values()].filter((u) => u.user_group_id === 150 || u.user_group_id === 120);
    if (known.length) return known;
    // Roles are hidden from pilots and students: offer the instructors of their own bookings and their supervisor.
    const supervisor = users.get(me)?.supervisor_id ?? null;
    const ids = new Set([...bookings.map((b) => b.instructor_id), supervisor].filter((x): x is string => !!x));
    return [...ids].map((id) => users.get(id)).filter((u): u is NonNullable<typeof u> => !!u);
  }, [users, bookings, me]);
  const bookCommands = useMemo(() => commands.filter((c) => c.name === 'schedule.book'), [commands]);
  const pending = bookCommands.filter((c) => c.status === 'pending');
  const refused = bookCommands.filter((c) => c.status === 'rejected').slice(0, 5);

  const days = boardDays(date, view);
  const rows = by === 'aircraft' ? active.map((a) => ({ id: a.id, label: a.registration })) : instructors.map((u) => ({ id: u.id, label: fullName(u) }));
  const ofRow = (b: Pick<BookingDoc, 'aircraft_id' | 'instructor_id'>, rowId: string) => (by === 'aircraft' ? b.aircraft_id === rowId : b.instructor_id === rowId);
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
  const moving = new Set(pending.map((c) => (c.args as { id?: unknown }).id).filter((x): x is string => typeof x === 'string'));
  const shown = [...bookings.filter((b) => !moving.has(b.id)), ...pendingDocs];

  /**
   * Every booking and move goes here: rule 3 (an aircraft blocked by an open
   * MEL/CDL item) is decided on the device with the shared rule, so it is
   * refused offline too with the server's code and words; the rest is the
   * `schedule.book` command, decided once by the server.
   */
  const book = async (args: BookArgs): Promise<boolean> => {
    const blocked = aircraftBlockedFor(melItems.get(args.aircraft_id) ?? [], args);
    if (blocked) {
      setLocalRefusal({ code: 'AIRCRAFT_BLOCKED', message: aircraftBlockedMessage(registration.get(args.aircraft_id) ?? 'The aircraft', blocked) });
      return false;
    }
    // Duty hook (issue 30): the shared duty rule on the device's data; the server re-decides on push.
    const dutyStop = deviceBookingRefusal(duty, { id: 'id' in args ? args.id : undefined, aircraft_id: args.aircraft_id, pilot_id: args.pilot_id, instructor_id: args.instructor_id ?? null, start: args.start, end: args.end });
    if (dutyStop) {
      setLocalRefusal({ code: dutyStop.code, message: dutyStop.message });
      return false;
    }
    setLocalRefusal(null);
    await ws.run('schedule.book', args);
    return true;
  };

  /** Drop of a dragged booking on a row and day: the same booking, same length, at the new place (a move command). */
  const onDrop = (e: DragEvent<HTMLTableCellElement>, rowId: string, from: number, to: number, dayIso: string) => {
    e.preventDefault();
    const id = e.dataTransfer.getData(DRAG_TYPE);
    const b = bookings.find((x) => x.id === id);
    if (!b) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const grab = Number(e.dataTransfer.getData('text/x-grab-seconds')) || 0;
    const start =
      view === 'day' ? droppedStart(from, to, (e.clientX - rect.left) / rect.width, grab) : startOfDay(dayIso, zone) + (b.start - startOfDay(isoDateIn(b.start, zone), zone));
    const args = movedArgs(b, start, by === 'aircraft' ? { aircraft_id: rowId } : { instructor_id: rowId });
    if (args.start === b.start && args.aircraft_id === b.aircraft_id && args.instructor_id === b.instructor_id) return;
    void book(args);
  };

  const openForm = (start: number, rowId?: string) => {
    const c = isoDateIn(start, zone);
    const hh = formatTime(start, { ...display, timeFormat: '24' }, zone);
    const bookable = types.filter((t) => !self || t.booking);
    setDraft({
      aircraft_id: by === 'aircraft' && rowId ? rowId : (active[0]?.id ?? ''),
      pilot_id: me,
      instructor_id: by === 'instructor' && rowId ? rowId : '',
      flight_type_id: bookable[0]?.id ?? '',
      date: c,
      time: hh,
      minutes: 60,
      remarks: '',
    });
  };

  /** Opens a booking in the form to move or change it: the keyboard's way to do what dragging does. */
  const openMove = (b: BookingDoc) => {
    setDraft({
      id: b.id,
      aircraft_id: b.aircraft_id,
      pilot_id: b.pilot_id,
      instructor_id: b.instructor_id ?? '',
      flight_type_id: b.flight_type_id,
      date: isoDateIn(b.start, zone),
      time: formatTime(b.start, { ...display, timeFormat: '24' }, zone),
      minutes: Math.round((b.end - b.start) / 60),
      remarks: b.remarks ?? '',
    });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    const [y, m, d] = draft.date.split('-').map(Number);
    const [hh, mm] = draft.time.split(':').map(Number);
    const start = zonedToUnix({ year: y, month: m, day: d, hour: hh, minute: mm }, zone);
    const queued = await book({
      ...(draft.id ? { id: draft.id } : { new_id: uuidv7() }),
      aircraft_id: draft.aircraft_id,
      pilot_id: self ? me : draft.pilot_id,
      instructor_id: draft.instructor_id || null,
      flight_type_id: draft.flight_type_id,
      start,
      end: start + draft.minutes * 60,
      remarks: draft.remarks || null,
    });
    if (queued) setDraft(null);
  };

  return (
    <section aria-labelledby="schedules-title" className="schedules">
      <div className="screen-head">
        <h2 id="schedules-title">Schedule</h2>
        <div className="toolbar" role="toolbar" aria-label="Schedule view">
          <button type="button" aria-pressed={mode === 'board'} onClick={() => setMode('board')}>
            Board
          </button>
          {self && (
            <button type="button" aria-pressed={mode === 'lesson'} onClick={() => setMode('lesson')}>
              Book a lesson
            </button>
          )}
        </div>
      </div>

      {pending.length > 0 && (
        <p className="hint" data-testid="bookings-pending">
          <Badge tone="pending">{pending.length} waiting</Badge> Booking requests made here wait for the server, which decides conflicts once.
        </p>
      )}
      {localRefusal && (
        <div className="decision decision-rejected" role="alert" data-testid="booking-refused-here">
          <strong>Not booked</strong>: {localRefusal.message} <Badge tone="danger">{localRefusal.code}</Badge>
        </div>
      )}
      {refused.length > 0 && (
        <div className="refused-list" data-testid="bookings-refused">
          {refused.map((c) => (
            <RefusedBooking key={c.id} command={c} display={display} registration={registration} />
          ))}
        </div>
      )}

      {mode === 'lesson' ? (
        <LessonFlow
          date={date}
          setDate={setDate}
          zone={zone}
          display={display}
          now={now}
          aircraft={active}
          types={types.filter((t) => t.booking)}
          instructors={instructors}
          hours={hours}
          mine={shown.filter((b) => b.pilot_id === me || b.instructor_id === me)}
          melItems={melItems}
          onBook={async (args) => {
            await book({ new_id: uuidv7(), pilot_id: me, ...args });
          }}
        />
      ) : (
        <>
          <div className="toolbar board-controls">
            <button type="button" onClick={() => setDate(shiftDate(date, view === 'day' ? -1 : -7))} aria-label="Previous">
              ‹
            </button>
            <input type="date" value={date} onChange={(e) => e.target.value && setDate(e.target.value)} aria-label="Date" />
            <button type="button" onClick={() => setDate(shiftDate(date, view === 'day' ? 1 : 7))} aria-label="Next">
              ›
            </button>
            <button type="button" aria-pressed={view === 'day'} onClick={() => setView('day')}>
              Day
            </button>
            <button type="button" aria-pressed={view === 'week'} onClick={() => setView('week')}>
              Week
            </button>
            <button type="button" aria-pressed={by === 'aircraft'} onClick={() => setBy('aircraft')}>
              By aircraft
            </button>
            <button type="button" aria-pressed={by === 'instructor'} onClick={() => setBy('instructor')}>
              By instructor
            </button>
            <button type="button" onClick={() => openForm(startOfDay(date, zone) + 9 * 3600)}>
              New booking
            </button>
          </div>
          {rows.length === 0 ? (
            <Empty>Nothing to show yet.</Empty>
          ) : (
            <table className="board" data-testid="schedule-board">
              <thead>
                <tr>
                  <th scope="col">{by === 'aircraft' ? 'Aircraft' : 'Instructor'}</th>
                  {days.map((d) => (
                    <th scope="col" key={d}>
                      {view === 'day' ? (
                        <span className="hours">
                          {HOUR_LABELS.map((h) => (
                            <span key={h}>{h}</span>
                          ))}
                        </span>
                      ) : (
                        d
                      )}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id}>
                    <th scope="row">{r.label}</th>
                    {days.map((d) => {
                      const from = startOfDay(d, zone) + (view === 'day' ? 6 * 3600 : 0);
                      const to = view === 'day' ? from + 16 * 3600 : (endOfDay(d, zone) ?? from + 86400);
                      const list = bookingsOfDay(
                        shown.filter((b) => ofRow(b, r.id)),
                        d,
                        zone,
                      );
                      return (
                        // biome-ignore lint/a11y/useKeyWithClickEvents: a pointer shortcut; keyboard users book with the "New booking" button
                        <td
                          key={d}
                          className={view === 'day' ? 'lane' : 'cell'}
                          onClick={(e) => {
                            if (e.target !== e.currentTarget) return;
                            const rect = e.currentTarget.getBoundingClientRect();
                            const frac = view === 'day' ? (e.clientX - rect.left) / rect.width : 9 / 24;
                            const at = Math.floor((from + frac * (to - from)) / 1800) * 1800;
                            openForm(at, r.id);
                          }}
                          title="Click an empty place to book; drop a booking here to move it"
                          onDragOver={(e) => {
                            if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
                          }}
                          onDrop={(e) => onDrop(e, r.id, from, to, d)}
                          data-row={r.id}
                          data-day={d}
                        >
                          {list.map((b) => {
                            const p = placement(b, from, to);
                            const t = typeName.get(b.flight_type_id);
                            const who = [fullName(users.get(b.pilot_id)), b.instructor_id ? fullName(users.get(b.instructor_id)) : ''].filter(Boolean).join(' / ');
                            const label = `${formatTime(b.start, display)}–${formatTime(b.end, display)} ${by === 'aircraft' ? who : (registration.get(b.aircraft_id) ?? '')}`;
                            const movable = !('pending' in b);
                            return (
                              <button
                                key={b.id}
                                type="button"
                                disabled={!movable}
                                onClick={() => openMove(b)}
                                draggable={movable}
                                onDragStart={(e) => {
                                  e.dataTransfer.setData(DRAG_TYPE, b.id);
                                  // Where in the booking it was grabbed, so it lands under the pointer.
                                  const rect = e.currentTarget.getBoundingClientRect();
                                  const lane = e.currentTarget.parentElement?.getBoundingClientRect();
                                  const grab = lane && view === 'day' ? ((e.clientX - rect.left) / lane.width) * (to - from) : 0;
                                  e.dataTransfer.setData('text/x-grab-seconds', String(Math.round(grab)));
                                  e.dataTransfer.effectAllowed = 'move';
                                }}
                                className={`booking${'pending' in b ? ' booking-pending' : ''}${movable ? ' booking-movable' : ''}`}
                                style={view === 'day' ? { left: `${p.left}%`, width: `${p.width}%`, background: t?.color ?? undefined } : { background: t?.color ?? undefined }}
                                title={`${label} · ${t?.name ?? ''}`}
                                data-booking={b.id}
                              >
                                {label}
                                {'pending' in b && <small> (waiting)</small>}
                              </button>
                            );
                          })}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}

      {draft && (
        <form className="card-form booking-form" aria-label={draft.id ? 'Change booking' : 'New booking'} onSubmit={submit}>
          <h3>{draft.id ? 'Change booking' : 'New booking'}</h3>
          <div className="grid">
            <Field label="Aircraft">
              <select value={draft.aircraft_id} onChange={(e) => setDraft({ ...draft, aircraft_id: e.target.value })} required>
                {active.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.registration}
                  </option>
                ))}
              </select>
            </Field>
            {!self && (
              <Field label="Pilot">
                <select value={draft.pilot_id} onChange={(e) => setDraft({ ...draft, pilot_id: e.target.value })} required>
                  {[...users.values()]
                    .filter((u) => u.active !== false)
                    .sort((a, b) => fullName(a).localeCompare(fullName(b)))
                    .map((u) => (
                      <option key={u.id} value={u.id}>
                        {fullName(u)}
                      </option>
                    ))}
                </select>
              </Field>
            )}
            <Field label="Instructor">
              <select value={draft.instructor_id} onChange={(e) => setDraft({ ...draft, instructor_id: e.target.value })}>
                <option value="">None</option>
                {instructors.map((u) => (
                  <option key={u.id} value={u.id}>
                    {fullName(u)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Flight type">
              <select value={draft.flight_type_id} onChange={(e) => setDraft({ ...draft, flight_type_id: e.target.value })} required>
                {types
                  .filter((t) => !self || t.booking)
                  .map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
              </select>
            </Field>
            <Field label="Date">
              <input type="date" value={draft.date} onChange={(e) => setDraft({ ...draft, date: e.target.value })} required />
            </Field>
            <Field label={`Start (${zone})`}>
              <input type="time" step={300} value={draft.time} onChange={(e) => setDraft({ ...draft, time: e.target.value })} required />
            </Field>
            <Field label="Length">
              <select value={draft.minutes} onChange={(e) => setDraft({ ...draft, minutes: Number(e.target.value) })}>
                {[...new Set([30, 60, 90, 120, 180, 240, draft.minutes])]
                  .sort((a, b) => a - b)
                  .map((n) => (
                  <option key={n} value={n}>
                    {n} min
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Remarks" wide>
              <input value={draft.remarks} onChange={(e) => setDraft({ ...draft, remarks: e.target.value })} maxLength={2000} />
            </Field>
          </div>
          <div className="actions">
            <button type="submit">{draft.id ? 'Move' : 'Book'}</button>
            <button type="button" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function RefusedBooking({ command, display, registration }: { command: CommandDoc; display: DisplaySettings; registration: Map<string, string> }) {
  const a = command.args as Record<string, unknown>;
  const conflicts = conflictsOf(command.details);
  const code = command.details && typeof command.details === 'object' ? String((command.details as { code?: unknown }).code ?? '') : '';
  return (
    <div className="decision decision-rejected" role="alert" data-testid="booking-refused">
      <strong>Not booked</strong> ({registration.get(String(a.aircraft_id)) ?? 'aircraft'} {formatDateTime(Number(a.start), display)}): {command.reason}
      {code && <Badge tone="danger">{code}</Badge>}
      {conflicts.length > 0 && (
        <ul className="conflicts">
          {conflicts.map((c) => (
            <li key={c.id} data-testid="competing-booking">
              Competing booking: {registration.get(c.aircraft_id) ?? 'aircraft'} · {formatDateTime(c.start, display)} – {formatTime(c.end, display)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface LessonProps {
  date: string;
  setDate(d: string): void;
  zone: string;
  display: DisplaySettings;
  now: number;
  aircraft: AircraftDoc[];
  types: TypeInfo[];
  instructors: Array<{ id: string; name: string; surname: string }>;
  hours: HoursRow[];
  mine: BookingDoc[];
  /** Open MEL/CDL items per aircraft (rule 3): time from the block on is not offered. */
  melItems: ReadonlyMap<string, TimedMelItem[]>;
  onBook(args: { aircraft_id: string; instructor_id: string | null; flight_type_id: string; start: number; end: number }): Promise<void>;
}

/** A self-booker's flow: only bookable types, only slots inside the operating hours where they are free. */
function LessonFlow(p: LessonProps) {
  const [typeId, setTypeId] = useState('');
  const [aircraftId, setAircraftId] = useState('');
  const [instructorId, setInstructorId] = useState('');
  const [minutes, setMinutes] = useState(60);
  const type = p.types.find((t) => t.id === typeId) ?? p.types[0];
  const plane = p.aircraft.find((a) => a.id === aircraftId) ?? p.aircraft[0];
  const starts = useMemo(() => {
    if (!plane) return [];
    const open = openWindows(p.hours, plane.base_id ?? null, p.date, p.zone);
    const busy = p.mine.map((b) => ({ start: b.start, end: b.end }));
    const block = blockedFrom(p.melItems.get(plane.id) ?? [], p.now);
    if (block) busy.push({ start: block.at, end: Number.MAX_SAFE_INTEGER });
    return allowedStarts(open, busy, minutes * 60, p.now);
  }, [plane, p.hours, p.date, p.zone, p.mine, minutes, p.now, p.melItems]);

  if (!type || !plane) return <Empty>No aircraft or bookable flight type is available for self-booking.</Empty>;
  return (
    <div className="lesson" data-testid="lesson-flow">
      <div className="grid">
        <Field label="Date">
          <input type="date" value={p.date} onChange={(e) => e.target.value && p.setDate(e.target.value)} />
        </Field>
        <Field label="Lesson">
          <select value={type.id} onChange={(e) => setTypeId(e.target.value)} aria-label="Lesson type">
            {p.types.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Aircraft">
          <select value={plane.id} onChange={(e) => setAircraftId(e.target.value)} aria-label="Lesson aircraft">
            {p.aircraft.map((a) => (
              <option key={a.id} value={a.id}>
                {a.registration}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Instructor">
          <select value={instructorId} onChange={(e) => setInstructorId(e.target.value)} aria-label="Lesson instructor">
            <option value="">None</option>
            {p.instructors.map((u) => (
              <option key={u.id} value={u.id}>
                {fullName(u)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Length">
          <select value={minutes} onChange={(e) => setMinutes(Number(e.target.value))} aria-label="Lesson length">
            {[60, 90, 120].map((n) => (
              <option key={n} value={n}>
                {n} min
              </option>
            ))}
          </select>
        </Field>
      </div>
      <h3>Open slots on {p.date}</h3>
      {starts.length === 0 ? (
        <Empty>No slot inside the operating hours on this day.</Empty>
      ) : (
        <ul className="slots" aria-label="Open slots">
          {starts.map((t) => (
            <li key={t}>
              <button
                type="button"
                data-slot={t}
                onClick={() => p.onBook({ aircraft_id: plane.id, instructor_id: instructorId || null, flight_type_id: type.id, start: t, end: t + minutes * 60 })}
              >
                {formatTime(t, p.display)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3>My bookings</h3>
      {p.mine.length === 0 ? (
        <Empty>No bookings yet.</Empty>
      ) : (
        <ul className="my-bookings" data-testid="my-bookings">
          {[...p.mine]
            .filter((b) => b.end > p.now)
            .sort((a, b) => a.start - b.start)
            .map((b) => (
              <li key={b.id} data-booking={b.id}>
                {formatDateTime(b.start, p.display)}–{formatTime(b.end, p.display)} · {p.aircraft.find((a) => a.id === b.aircraft_id)?.registration ?? ''} {b.status === 'PENDING' ? <Badge tone="pending">waiting for the server</Badge> : <Badge tone="ok">booked</Badge>}
              </li>
            ))}
        </ul>
      )}
    </div>
  );
}

/** Open MEL/CDL items of each aircraft as the booking rule takes them, recomputed on the device (techlog rules) so time running out offline counts. */
function useMelItems(aircraft: readonly AircraftDoc[], reports: readonly AircraftReportDoc[], commands: readonly CommandDoc[], now: number, zone: string): Map<string, TimedMelItem[]> {
  return useMemo(() => {
    const byId = new Map(aircraft.map((a) => [a.id, a]));
    const out = new Map<string, TimedMelItem[]>();
    for (const v of openItems(reports, byId, commands, now, zone)) {
      if (!v.item || v.report.status === 'CLOSED' || v.pending === 'close') continue;
      const list = out.get(v.report.aircraft_id) ?? [];
      list.push({
        label: melItemLabel({ type: v.report.type, ata_chapter: v.report.ata_chapter, category: v.item.category ?? null, title: v.report.title }),
        expiredAtStart: v.status === 'EXPIRED',
        expires: v.deadline?.kind === 'time' ? v.deadline.expires : null,
      });
      out.set(v.report.aircraft_id, list);
    }
    return out;
  }, [aircraft, reports, commands, now, zone]);
}
