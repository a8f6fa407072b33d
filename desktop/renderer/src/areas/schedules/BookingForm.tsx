import { type BookingDoc, uuidv7 } from '@ops/shared';
import { cancelRefusal } from '@ops/shared/rules/schedules/policy';
import { type FormEvent, useMemo, useState } from 'react';
import { type DisplaySettings, formatTime, hourOptions, isoDateIn, zonedToUnix } from '../../format.ts';
import { fullName } from '../../hooks.ts';
import { Field } from '../../ui.tsx';
import { ReadinessPanel } from '../readiness/ReadinessPanel.tsx';
import type { BookArgs } from './board.ts';
import type { ScheduleData } from './use-schedules.ts';
import { useT } from '../../i18n.tsx';

/** Minutes of the picker: the server's 5-minute grid. */
const MINUTES = Array.from({ length: 12 }, (_, i) => String(i * 5).padStart(2, '0'));

export interface Draft {
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

/** A new booking at `start` (company zone), on the clicked row's aircraft or instructor when there is one. */
export function newDraft(
  start: number,
  on: { aircraft_id?: string; instructor_id?: string },
  data: Pick<ScheduleData, 'me' | 'self' | 'types' | 'active' | 'display' | 'zone'>,
): Draft {
  const bookable = data.types.filter((t) => !data.self || t.booking);
  return {
    aircraft_id: on.aircraft_id ?? data.active[0]?.id ?? '',
    pilot_id: data.me,
    instructor_id: on.instructor_id ?? '',
    flight_type_id: bookable[0]?.id ?? '',
    date: isoDateIn(start, data.zone),
    time: formatTime(start, { ...data.display, timeFormat: '24' }, data.zone),
    minutes: 60,
    remarks: '',
  };
}

/** An existing booking in the form to move or change it: the keyboard's way to do what dragging does. */
export function draftOf(b: BookingDoc, display: DisplaySettings, zone: string): Draft {
  return {
    id: b.id,
    aircraft_id: b.aircraft_id,
    pilot_id: b.pilot_id,
    instructor_id: b.instructor_id ?? '',
    flight_type_id: b.flight_type_id,
    date: isoDateIn(b.start, zone),
    time: formatTime(b.start, { ...display, timeFormat: '24' }, zone),
    minutes: Math.round((b.end - b.start) / 60),
    remarks: b.remarks ?? '',
  };
}

/** The `schedule.book` arguments of a filled form (a self-booker always books for themself). */
export function argsOf(draft: Draft, me: string, self: boolean, zone: string): BookArgs {
  const [y, m, d] = draft.date.split('-').map(Number);
  const [hh, mm] = draft.time.split(':').map(Number);
  const start = zonedToUnix({ year: y, month: m, day: d, hour: hh, minute: mm }, zone);
  return {
    ...(draft.id ? { id: draft.id } : { new_id: uuidv7() }),
    aircraft_id: draft.aircraft_id,
    pilot_id: self ? me : draft.pilot_id,
    instructor_id: draft.instructor_id || null,
    flight_type_id: draft.flight_type_id,
    start,
    end: start + draft.minutes * 60,
    remarks: draft.remarks || null,
  };
}

/** The booking form of the board: a new booking, or a move or change of one. Closes when the request is queued. */
export function BookingForm({
  initial,
  data,
  onClose,
  onBooked,
}: {
  initial: Draft;
  data: ScheduleData;
  onClose(): void;
  /** Called with the start of a booking handed to the server (the board moves to its day). */
  onBooked?(start: number): void;
}) {
  const t = useT();
  const [draft, setDraft] = useState<Draft>(initial);
  const { self, users, instructors, types, active, zone, display } = data;
  const [hh, mm] = draft.time.split(':');
  // Cancelling the opened booking: offered only when the policy allows it (staff any; pilots their own, not started).
  const original = draft.id ? data.bookings.find((b) => b.id === draft.id) : undefined;
  const mayCancel =
    !!original &&
    !data.cancelling.has(original.id) &&
    cancelRefusal({ userId: data.me, role: data.role }, original, data.now) === null;
  const [asking, setAsking] = useState(false);
  const setTime = (h: string, m: string) => setDraft({ ...draft, time: `${h}:${m}` });

  // The readiness panel (issue 31) follows the form; its own id is left out so typing does not refetch.
  const plan = useMemo(() => {
    const a = argsOf(draft, data.me, self, zone);
    return {
      ...(draft.id ? { id: draft.id } : {}),
      aircraft_id: a.aircraft_id,
      pilot_id: a.pilot_id,
      instructor_id: a.instructor_id ?? null,
      flight_type_id: a.flight_type_id,
      start: a.start,
      end: a.end,
    };
  }, [draft, data.me, self, zone]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const args = argsOf(draft, data.me, self, zone);
    if (await data.book(args)) {
      onBooked?.(args.start);
      onClose();
    }
  };

  return (
    <form
      className="card-form booking-form"
      aria-label={draft.id ? t('schedules.changeBooking') : t('schedules.newBooking')}
      onSubmit={submit}
    >
      <h3>{draft.id ? t('schedules.changeBooking') : t('schedules.newBooking')}</h3>
      <div className="grid">
        <Field label={t('schedules.aircraft')}>
          <select
            value={draft.aircraft_id}
            onChange={(e) => setDraft({ ...draft, aircraft_id: e.target.value })}
            required
          >
            {active.map((a) => (
              <option key={a.id} value={a.id}>
                {a.registration}
              </option>
            ))}
          </select>
        </Field>
        {!self && (
          <Field label={t('schedules.pilot')}>
            <select value={draft.pilot_id} onChange={(e) => setDraft({ ...draft, pilot_id: e.target.value })} required>
              {/* Only pilots may sit in the pilot's seat (the server refuses others with NOT_ALLOWED). */}
              {[...users.values()]
                .filter((u) => (u.active !== false && u.pilot) || u.id === draft.pilot_id)
                .sort((a, b) => fullName(a).localeCompare(fullName(b)))
                .map((u) => (
                  <option key={u.id} value={u.id}>
                    {fullName(u)}
                  </option>
                ))}
            </select>
          </Field>
        )}
        <Field label={t('schedules.instructor')}>
          <select value={draft.instructor_id} onChange={(e) => setDraft({ ...draft, instructor_id: e.target.value })}>
            <option value="">{t('schedules.none')}</option>
            {instructors.map((u) => (
              <option key={u.id} value={u.id}>
                {fullName(u)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('schedules.flightType')}>
          <select
            value={draft.flight_type_id}
            onChange={(e) => setDraft({ ...draft, flight_type_id: e.target.value })}
            required
          >
            {types
              .filter((t) => !self || t.booking)
              .map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
          </select>
        </Field>
        <Field label={t('schedules.date')}>
          <input
            type="date"
            value={draft.date}
            onChange={(e) => setDraft({ ...draft, date: e.target.value })}
            required
          />
        </Field>
        <Field label={t('schedules.startZone', { zone: zone.replace(/_/g, ' ') })}>
          {/* Hour and minute selects, not a native time input: that follows the browser's locale (AM/PM), not the company's format. */}
          <span className="time-picker">
            <select aria-label={t('schedules.startHour')} value={hh} onChange={(e) => setTime(e.target.value, mm)}>
              {hourOptions(display).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            :
            <select aria-label={t('schedules.startMinute')} value={mm} onChange={(e) => setTime(hh, e.target.value)}>
              {[...new Set([...MINUTES, mm])].sort().map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </span>
        </Field>
        <Field label={t('schedules.length')}>
          <select value={draft.minutes} onChange={(e) => setDraft({ ...draft, minutes: Number(e.target.value) })}>
            {[...new Set([30, 60, 90, 120, 180, 240, draft.minutes])]
              .sort((a, b) => a - b)
              .map((n) => (
                <option key={n} value={n}>
                  {t('schedules.minutes', { count: n })}
                </option>
              ))}
          </select>
        </Field>
        <Field label={t('schedules.remarks')} wide>
          <input
            value={draft.remarks}
            onChange={(e) => setDraft({ ...draft, remarks: e.target.value })}
            maxLength={2000}
          />
        </Field>
      </div>
      <ReadinessPanel source={{ kind: 'plan', plan }} />
      <div className="actions">
        <button type="submit">{draft.id ? t('schedules.move') : t('schedules.book')}</button>
        <button type="button" onClick={onClose}>
          {t('schedules.close')}
        </button>
        {original && mayCancel && !asking && (
          <button type="button" className="danger" onClick={() => setAsking(true)}>
            {t('schedules.cancelBooking')}
          </button>
        )}
      </div>
      {original && mayCancel && asking && (
        <p className="confirm" data-testid="confirm-cancel">
          {t('schedules.confirmCancel')}{' '}
          <button
            type="button"
            className="danger"
            onClick={async () => {
              if (await data.cancel(original)) onClose();
            }}
          >
            {t('schedules.yesCancel')}
          </button>{' '}
          <button type="button" onClick={() => setAsking(false)}>
            {t('schedules.keepIt')}
          </button>
        </p>
      )}
    </form>
  );
}
