import type { BookingDoc, CommandDoc } from '@ops/shared';
import { useState } from 'react';
import { mayBookLesson } from '@ops/shared/rules/schedules/policy';
import { type DisplaySettings, formatDateTime, formatTime, isoDateIn } from '../../format.ts';
import { commandRefusal, humanRefusal } from '../../refusals.ts';
import { useWorkspace } from '../../hooks.ts';
import { Badge } from '../../ui.tsx';
import './schedules.css';
import { todayIn } from './board.ts';
import { BookingForm, type Draft, draftOf, newDraft } from './BookingForm.tsx';
import { LessonFlow } from './LessonFlow.tsx';
import { ScheduleBoard } from './ScheduleBoard.tsx';
import { useSchedules } from './use-schedules.ts';
import { useLocale, useT } from '../../i18n.tsx';

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

/**
 * The schedule screen: the day and week board (office) and the "book a lesson" flow
 * (self-bookers), both offline-first; the data and `book` come from `useSchedules`.
 */
export default function Schedules() {
  const data = useSchedules();
  const { zone, display, pending, refused, localRefusal, registration } = data;
  const ws = useWorkspace();
  const t = useT();
  // Every button from the schedules policy: the auditor and mechanics get the board to read, nothing to book.
  const lessons = mayBookLesson(ws.user.user_group_id);
  const [mode, setMode] = useState<'board' | 'lesson'>(lessons ? 'lesson' : 'board');
  const [date, setDate] = useState(() => todayIn(zone));
  // The form's draft, keyed so that opening another booking starts the form afresh.
  const [form, setForm] = useState<{ key: number; draft: Draft } | null>(null);
  const open = (draft: Draft) => setForm((f) => ({ key: (f?.key ?? 0) + 1, draft }));

  return (
    <section aria-labelledby="schedules-title" className="schedules">
      <div className="screen-head">
        <h2 id="schedules-title">{t('schedules.title')}</h2>
        <div className="toolbar" role="toolbar" aria-label={t('schedules.viewAria')}>
          <button type="button" aria-pressed={mode === 'board'} onClick={() => setMode('board')}>
            {t('schedules.board')}
          </button>
          {lessons && (
            <button type="button" aria-pressed={mode === 'lesson'} onClick={() => setMode('lesson')}>
              {t('schedules.bookLesson')}
            </button>
          )}
        </div>
      </div>

      {pending.length > 0 && (
        <p className="hint" data-testid="bookings-pending">
          <Badge tone="pending">{t('schedules.waiting', { count: pending.length })}</Badge> {t('schedules.waitingNote')}
        </p>
      )}
      {localRefusal && (
        <div className="decision decision-rejected" role="alert" data-testid="booking-refused-here">
          <strong>{localRefusal.action === 'cancel' ? t('schedules.notCanceled') : t('schedules.notBooked')}</strong>:{' '}
          {humanRefusal(localRefusal.message, localRefusal.code, t)}
        </div>
      )}
      {refused.length > 0 && (
        <div className="refused-list" data-testid="bookings-refused">
          {refused.map((c) => (
            <RefusedBooking key={c.id} command={c} display={display} registration={registration} />
          ))}
        </div>
      )}

      {mode === 'lesson' && lessons ? (
        <LessonFlow
          date={date}
          setDate={setDate}
          zone={zone}
          display={display}
          now={data.now}
          aircraft={data.active}
          types={data.types.filter((t) => t.booking)}
          instructors={data.instructors}
          hours={data.hours}
          mine={data.shown.filter((b) => b.pilot_id === data.me || b.instructor_id === data.me)}
          melItems={data.melItems}
          grounded={data.grounded}
          onBook={data.bookLesson}
          cancelling={data.cancelling}
          onCancel={data.cancel}
        />
      ) : (
        <ScheduleBoard
          data={data}
          date={date}
          setDate={setDate}
          onNew={(start, on) => open(newDraft(start, on, data))}
          onOpen={(b: BookingDoc) => open(draftOf(b, display, zone))}
        />
      )}

      {form && (
        <BookingForm
          key={form.key}
          initial={form.draft}
          data={data}
          onClose={() => setForm(null)}
          // The board follows the booking: booked on another day, it shows that day.
          onBooked={(start) => setDate(isoDateIn(start, zone))}
        />
      )}
    </section>
  );
}

function RefusedBooking({
  command,
  display,
  registration,
}: {
  command: CommandDoc;
  display: DisplaySettings;
  registration: Map<string, string>;
}) {
  const a = command.args as Record<string, unknown>;
  const conflicts = conflictsOf(command.details);
  const ws = useWorkspace();
  const t = useT();
  const { locale } = useLocale();
  // The server's reason in the reader's language (its text), else its English made readable.
  const reason = commandRefusal(command, t, locale);
  if (command.name === 'schedule.cancel')
    return (
      <div className="decision decision-rejected" role="alert" data-testid="booking-refused">
        <strong>{t('schedules.notCanceled')}</strong>: {reason}{' '}
        <button type="button" className="link" onClick={() => ws.dismiss([command.id])}>
          {t('schedules.dismiss')}
        </button>
      </div>
    );
  return (
    <div className="decision decision-rejected" role="alert" data-testid="booking-refused">
      <strong>{t('schedules.notBooked')}</strong>{' '}
      {t('schedules.refusedWhat', {
        aircraft: registration.get(String(a.aircraft_id)) ?? t('schedules.aircraftFallback'),
        when: formatDateTime(Number(a.start), display),
      })}
      : {reason}{' '}
      <button type="button" className="link" onClick={() => ws.dismiss([command.id])}>
        {t('schedules.dismiss')}
      </button>
      {conflicts.length > 0 && (
        <ul className="conflicts">
          {conflicts.map((c) => (
            <li key={c.id} data-testid="competing-booking">
              {t('schedules.competing', {
                aircraft: registration.get(c.aircraft_id) ?? t('schedules.aircraftFallback'),
                from: formatDateTime(c.start, display),
                to: formatTime(c.end, display),
              })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
