import type { BookingDoc } from '@ops/shared';
import { type DragEvent, useState } from 'react';
import { mayBook, mayChangeBooking } from '@ops/shared/rules/schedules/policy';
import { endOfDay, formatTime, isoDateIn, zoneTag } from '../../format.ts';
import { fullName } from '../../hooks.ts';
import { Badge, Empty } from '../../ui.tsx';
import {
  boardDays,
  bookingsOfDay,
  DRAG_TYPE,
  droppedStart,
  movedArgs,
  placement,
  shiftDate,
  startOfDay,
} from './board.ts';
import type { ScheduleData } from './use-schedules.ts';
import { useT } from '../../i18n.tsx';

const HOUR_LABELS = Array.from({ length: 16 }, (_, i) => String(6 + i).padStart(2, '0'));

interface BoardProps {
  data: ScheduleData;
  date: string;
  setDate(date: string): void;
  /** Opens the booking form for a new booking at `start`, on the clicked row's aircraft or instructor. */
  onNew(start: number, on: { aircraft_id?: string; instructor_id?: string }): void;
  /** Opens an existing booking in the form (move or change). */
  onOpen(booking: BookingDoc): void;
}

/** The office board: a day (hour lanes) or a week, by aircraft or by instructor; click to book, drag to move. */
export function ScheduleBoard({ data, date, setDate, onNew, onOpen }: BoardProps) {
  const { zone, display, users, bookings, shown, active, registration, typeName, instructors } = data;
  const t = useT();
  // The buttons come from the schedules policy: the auditor and mechanics read the board, nothing more.
  const actor = { userId: data.me, role: data.role };
  const booker = mayBook(data.role);
  const [view, setView] = useState<'day' | 'week'>('day');
  const [by, setBy] = useState<'aircraft' | 'instructor'>('aircraft');

  const days = boardDays(date, view);
  const rows =
    by === 'aircraft'
      ? active.map((a) => ({ id: a.id, label: a.registration }))
      : instructors.map((u) => ({ id: u.id, label: fullName(u) }));
  const ofRow = (b: Pick<BookingDoc, 'aircraft_id' | 'instructor_id'>, rowId: string) =>
    by === 'aircraft' ? b.aircraft_id === rowId : b.instructor_id === rowId;
  const onRow = (rowId: string) => (by === 'aircraft' ? { aircraft_id: rowId } : { instructor_id: rowId });

  /** Drop of a dragged booking on a row and day: the same booking, same length, at the new place (a move command). */
  const onDrop = (e: DragEvent<HTMLTableCellElement>, rowId: string, from: number, to: number, dayIso: string) => {
    e.preventDefault();
    const id = e.dataTransfer.getData(DRAG_TYPE);
    const b = bookings.find((x) => x.id === id);
    if (!b) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const grab = Number(e.dataTransfer.getData('text/x-grab-seconds')) || 0;
    const start =
      view === 'day'
        ? droppedStart(from, to, (e.clientX - rect.left) / rect.width, grab)
        : startOfDay(dayIso, zone) + (b.start - startOfDay(isoDateIn(b.start, zone), zone));
    const args = movedArgs(b, start, onRow(rowId));
    if (args.start === b.start && args.aircraft_id === b.aircraft_id && args.instructor_id === b.instructor_id) return;
    void data.book(args);
  };

  return (
    <>
      <div className="toolbar board-controls">
        <button
          type="button"
          onClick={() => setDate(shiftDate(date, view === 'day' ? -1 : -7))}
          aria-label={t('schedules.previous')}
        >
          ‹
        </button>
        <input
          type="date"
          value={date}
          onChange={(e) => e.target.value && setDate(e.target.value)}
          aria-label={t('schedules.date')}
        />
        <button
          type="button"
          onClick={() => setDate(shiftDate(date, view === 'day' ? 1 : 7))}
          aria-label={t('schedules.next')}
        >
          ›
        </button>
        <button type="button" aria-pressed={view === 'day'} onClick={() => setView('day')}>
          {t('schedules.day')}
        </button>
        <button type="button" aria-pressed={view === 'week'} onClick={() => setView('week')}>
          {t('schedules.week')}
        </button>
        <button type="button" aria-pressed={by === 'aircraft'} onClick={() => setBy('aircraft')}>
          {t('schedules.byAircraft')}
        </button>
        <button type="button" aria-pressed={by === 'instructor'} onClick={() => setBy('instructor')}>
          {t('schedules.byInstructor')}
        </button>
        {booker && (
          <button type="button" onClick={() => onNew(startOfDay(date, zone) + 9 * 3600, {})}>
            {t('schedules.newBooking')}
          </button>
        )}
        {zoneTag(zone, display) && (
          <span className="muted small">{t('schedules.timesIn', { zone: zoneTag(zone, display) })}</span>
        )}
      </div>
      {rows.length === 0 ? (
        <Empty>{t('schedules.nothing')}</Empty>
      ) : (
        <table className="board" data-testid="schedule-board">
          <thead>
            <tr>
              <th scope="col">{by === 'aircraft' ? t('schedules.aircraft') : t('schedules.instructor')}</th>
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
                <th scope="row">
                  {r.label}
                  {by === 'aircraft' && data.grounded.has(r.id) && (
                    <>
                      {' '}
                      <Badge tone="danger" title={data.grounded.get(r.id)}>
                        {t('schedules.grounded')}
                      </Badge>
                    </>
                  )}
                </th>
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
                        if (!booker || e.target !== e.currentTarget) return;
                        const rect = e.currentTarget.getBoundingClientRect();
                        const frac = view === 'day' ? (e.clientX - rect.left) / rect.width : 9 / 24;
                        const at = Math.floor((from + frac * (to - from)) / 1800) * 1800;
                        onNew(at, onRow(r.id));
                      }}
                      title={booker ? t('schedules.clickHint') : undefined}
                      onDragOver={(e) => {
                        if (booker && e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
                      }}
                      onDrop={(e) => onDrop(e, r.id, from, to, d)}
                      data-row={r.id}
                      data-day={d}
                    >
                      {list.map((b) => {
                        const p = placement(b, from, to);
                        const ft = typeName.get(b.flight_type_id);
                        const who = [
                          fullName(users.get(b.pilot_id)),
                          b.instructor_id ? fullName(users.get(b.instructor_id)) : '',
                        ]
                          .filter(Boolean)
                          .join(' / ');
                        const label = `${formatTime(b.start, display)}–${formatTime(b.end, display)} ${by === 'aircraft' ? who : (registration.get(b.aircraft_id) ?? '')}`;
                        const movable = !('pending' in b) && mayChangeBooking(actor, b);
                        const style =
                          view === 'day'
                            ? { left: `${p.left}%`, width: `${p.width}%`, background: ft?.color ?? undefined }
                            : { background: ft?.color ?? undefined };
                        if (!movable && !('pending' in b))
                          return (
                            <span
                              key={b.id}
                              className="booking"
                              style={style}
                              title={`${label} · ${ft?.name ?? ''}`}
                              data-booking={b.id}
                            >
                              {label}
                            </span>
                          );
                        return (
                          <button
                            key={b.id}
                            type="button"
                            disabled={!movable}
                            onClick={() => onOpen(b)}
                            draggable={movable}
                            onDragStart={(e) => {
                              e.dataTransfer.setData(DRAG_TYPE, b.id);
                              // Where in the booking it was grabbed, so it lands under the pointer.
                              const rect = e.currentTarget.getBoundingClientRect();
                              const lane = e.currentTarget.parentElement?.getBoundingClientRect();
                              const grab =
                                lane && view === 'day' ? ((e.clientX - rect.left) / lane.width) * (to - from) : 0;
                              e.dataTransfer.setData('text/x-grab-seconds', String(Math.round(grab)));
                              e.dataTransfer.effectAllowed = 'move';
                            }}
                            className={`booking${'pending' in b ? ' booking-pending' : ''}${movable ? ' booking-movable' : ''}`}
                            style={style}
                            title={`${label} · ${ft?.name ?? ''}`}
                            data-booking={b.id}
                          >
                            {label}
                            {'pending' in b && <small> {t('schedules.waitingTag')}</small>}
                            {data.cancelling.has(b.id) && <small> {t('schedules.cancelWaitingTag')}</small>}
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
  );
}
