import type { AircraftDoc, BookingDoc } from '@ops/shared';
import type { HoursRow } from '@ops/shared/rules/company/operating-hours';
import { blockedFrom, type TimedMelItem } from '@ops/shared/rules/schedules/booking';
import { useMemo, useState } from 'react';
import { cancelRefusal } from '@ops/shared/rules/schedules/policy';
import { ReadinessPanel } from '../readiness/ReadinessPanel.tsx';
import { type DisplaySettings, formatDateTime, formatTime, withZone, zoneTag } from '../../format.ts';
import { fullName, useWorkspace } from '../../hooks.ts';
import { Badge, Empty, Field } from '../../ui.tsx';
import { allowedStarts } from './board.ts';
import { openWindows, type TypeInfo } from './use-schedules.ts';
import { useT } from '../../i18n.tsx';

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
  /** Why each grounded aircraft cannot be booked: no slot is offered on it. */
  grounded: ReadonlyMap<string, string>;
  onBook(args: {
    aircraft_id: string;
    instructor_id: string | null;
    flight_type_id: string;
    start: number;
    end: number;
  }): Promise<void>;
  /** Bookings whose cancel waits for the server. */
  cancelling: ReadonlySet<string>;
  /** Cancels one's own booking (`schedule.cancel`); false when refused on the device. */
  onCancel(b: BookingDoc): Promise<boolean>;
}

/** A self-booker's flow: only bookable types, only slots inside the operating hours where they are free. */
export function LessonFlow(p: LessonProps) {
  const ws = useWorkspace();
  const t = useT();
  const [typeId, setTypeId] = useState('');
  const [aircraftId, setAircraftId] = useState('');
  const [instructorId, setInstructorId] = useState('');
  const [minutes, setMinutes] = useState(60);
  const type = p.types.find((t) => t.id === typeId) ?? p.types[0];
  const plane = p.aircraft.find((a) => a.id === aircraftId) ?? p.aircraft[0];
  const starts = useMemo(() => {
    if (!plane || p.grounded.has(plane.id)) return [];
    const open = openWindows(p.hours, plane.base_id ?? null, p.date, p.zone);
    const busy = p.mine.map((b) => ({ start: b.start, end: b.end }));
    const block = blockedFrom(p.melItems.get(plane.id) ?? [], p.now);
    if (block) busy.push({ start: block.at, end: Number.MAX_SAFE_INTEGER });
    return allowedStarts(open, busy, minutes * 60, p.now);
  }, [plane, p.hours, p.date, p.zone, p.mine, minutes, p.now, p.melItems, p.grounded]);

  if (!type || !plane) return <Empty>{t('schedules.noSelfBooking')}</Empty>;
  return (
    <div className="lesson" data-testid="lesson-flow">
      <div className="grid">
        <Field label={t('schedules.date')}>
          <input type="date" value={p.date} onChange={(e) => e.target.value && p.setDate(e.target.value)} />
        </Field>
        <Field label={t('schedules.lesson')}>
          <select value={type.id} onChange={(e) => setTypeId(e.target.value)} aria-label={t('schedules.lessonType')}>
            {p.types.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('schedules.aircraft')}>
          <select
            value={plane.id}
            onChange={(e) => setAircraftId(e.target.value)}
            aria-label={t('schedules.lessonAircraft')}
          >
            {p.aircraft.map((a) => (
              <option key={a.id} value={a.id}>
                {a.registration}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('schedules.instructor')}>
          <select
            value={instructorId}
            onChange={(e) => setInstructorId(e.target.value)}
            aria-label={t('schedules.lessonInstructor')}
          >
            <option value="">{t('schedules.none')}</option>
            {p.instructors.map((u) => (
              <option key={u.id} value={u.id}>
                {fullName(u)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('schedules.length')}>
          <select
            value={minutes}
            onChange={(e) => setMinutes(Number(e.target.value))}
            aria-label={t('schedules.lessonLength')}
          >
            {[60, 90, 120].map((n) => (
              <option key={n} value={n}>
                {t('schedules.minutes', { count: n })}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {starts.length > 0 && (
        // Readiness of the day's first open slot (issue 31), offline from what the device holds.
        <ReadinessPanel
          source={{
            kind: 'plan',
            plan: {
              aircraft_id: plane.id,
              pilot_id: ws.user.id,
              instructor_id: instructorId || null,
              flight_type_id: type.id,
              start: starts[0],
              end: starts[0] + minutes * 60,
            },
          }}
        />
      )}
      <h3>
        {zoneTag(p.zone, p.display)
          ? t('schedules.openSlotsOnZone', { date: p.date, zone: zoneTag(p.zone, p.display) })
          : t('schedules.openSlotsOn', { date: p.date })}
      </h3>
      {starts.length === 0 ? (
        <Empty>{p.grounded.get(plane.id) ?? t('schedules.noSlot')}</Empty>
      ) : (
        <ul className="slots" aria-label={t('schedules.openSlots')}>
          {starts.map((t) => (
            <li key={t}>
              <button
                type="button"
                data-slot={t}
                onClick={() =>
                  p.onBook({
                    aircraft_id: plane.id,
                    instructor_id: instructorId || null,
                    flight_type_id: type.id,
                    start: t,
                    end: t + minutes * 60,
                  })
                }
              >
                {formatTime(t, p.display)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3>{t('schedules.myBookings')}</h3>
      <MyBookings {...p} />
    </div>
  );
}

/**
 * The person's coming bookings, each with "Cancel booking" when the policy
 * lets them (their own, not started yet); a cancel asks first and says what it
 * does. Times in the company zone, labelled with it when the flight zone differs.
 */
function MyBookings(p: LessonProps) {
  const ws = useWorkspace();
  const t = useT();
  const [asking, setAsking] = useState<string | null>(null);
  const actor = { userId: ws.user.id, role: ws.user.user_group_id };
  const coming = [...p.mine].filter((b) => b.end > p.now).sort((a, b) => a.start - b.start);
  if (coming.length === 0) return <Empty>{t('schedules.noBookings')}</Empty>;
  return (
    <ul className="my-bookings" data-testid="my-bookings">
      {coming.map((b) => {
        const registration = p.aircraft.find((a) => a.id === b.aircraft_id)?.registration ?? '';
        const when = withZone(
          `${formatDateTime(b.start, p.display)}–${formatTime(b.end, p.display)}`,
          p.zone,
          p.display,
        );
        const waiting = p.cancelling.has(b.id);
        const pending = b.status === 'PENDING';
        const offer = !pending && !waiting && cancelRefusal(actor, b, p.now) === null;
        return (
          <li key={b.id} data-booking={b.id}>
            <span>
              {when} · {registration}
            </span>
            {pending ? (
              <Badge tone="pending">{t('schedules.waitingServer')}</Badge>
            ) : waiting ? (
              <Badge tone="pending">{t('schedules.cancelWaiting')}</Badge>
            ) : (
              <Badge tone="ok">{t('schedules.booked')}</Badge>
            )}
            {offer && asking !== b.id && (
              <button type="button" className="link" onClick={() => setAsking(b.id)}>
                {t('schedules.cancelBooking')}
              </button>
            )}
            {offer && asking === b.id && (
              <span className="confirm" data-testid="confirm-cancel">
                {t('schedules.confirmCancelMine', { registration, when })}{' '}
                <button
                  type="button"
                  className="danger"
                  onClick={async () => {
                    setAsking(null);
                    await p.onCancel(b);
                  }}
                >
                  {t('schedules.yesCancel')}
                </button>{' '}
                <button type="button" onClick={() => setAsking(null)}>
                  {t('schedules.keepIt')}
                </button>
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
