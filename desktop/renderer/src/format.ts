/**
 * Dates, times and durations in the company's formats and zones (Part A 2.2):
 * `date_format`, `time_format` (12 or 24 hours), `duration_format` (1.5 or
 * 1:30), the company zone (CompanyDetail.timezone_id) for reports and MEL
 * deadlines, and the flight zone (CompanySetting.flight_timezone_id, else the
 * company zone) for flight times. Pure: no clock, no locale of the device.
 */

export const DATE_FORMATS = ['YYYY-MM-DD', 'DD-MM-YYYY', 'MM-DD-YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export type TimeFormat = '12' | '24';
export type DurationFormat = 'decimal' | 'time';

export interface DisplaySettings {
  dateFormat: DateFormat;
  timeFormat: TimeFormat;
  durationFormat: DurationFormat;
  /** IANA zone of the company: reports, MEL deadlines, sync times. */
  companyZone: string;
  /** IANA zone of flight times. */
  flightZone: string;
}

export const DEFAULT_DISPLAY: DisplaySettings = {
  dateFormat: 'YYYY-MM-DD',
  timeFormat: '24',
  durationFormat: 'time',
  companyZone: 'UTC',
  flightZone: 'UTC',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

const zoneOk = new Map<string, boolean>();
/** True for a zone this runtime knows (an unknown one would make Intl throw). */
export function isValidZone(zone: string): boolean {
  let ok = zoneOk.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      ok = true;
    } catch {
      ok = false;
    }
    zoneOk.set(zone, ok);
  }
  return ok;
}

/** A zone name from a `Timezone` record (`{ name }`) or a bare id; null when unusable. */
function zoneFrom(record: unknown, id: unknown): string | null {
  const name = isObject(record) ? str(record.name) : null;
  for (const z of [name, str(id)]) if (z && isValidZone(z)) return z;
  return null;
}

/**
 * The display settings from the `company` reference document's `data` (the
 * company settings payload); defaults for anything missing or invalid, so a
 * half-synced client still shows something sensible.
 */
export function displaySettingsOf(data: unknown): DisplaySettings {
  const d = isObject(data) ? data : {};
  const setting = isObject(d.CompanySetting) ? d.CompanySetting : {};
  const detail = isObject(d.CompanyDetail) ? d.CompanyDetail : {};
  const companyZone = zoneFrom(detail.Timezone, detail.timezone_id) ?? DEFAULT_DISPLAY.companyZone;
  const flightZone = zoneFrom(setting.FlightTimezone, setting.flight_timezone_id) ?? companyZone;
  const dateFormat = (DATE_FORMATS as readonly string[]).includes(String(setting.date_format))
    ? (String(setting.date_format) as DateFormat)
    : DEFAULT_DISPLAY.dateFormat;
  const timeFormat: TimeFormat = String(setting.time_format) === '12' ? '12' : '24';
  const durationFormat: DurationFormat = setting.duration_format === 'decimal' ? 'decimal' : 'time';
  return { dateFormat, timeFormat, durationFormat, companyZone, flightZone };
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

// One formatter per zone: building Intl formatters is the expensive part (the fleet board formats hundreds of deadlines).
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock of a unix instant (seconds) in an IANA zone. */
export function wallClock(unix: number, zone: string): WallClock {
  const out: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0 };
  for (const p of formatterOf(zone).formatToParts(new Date(unix * 1000))) {
    if (p.type === 'year' || p.type === 'month' || p.type === 'day' || p.type === 'hour' || p.type === 'minute')
      out[p.type] = Number(p.value);
  }
  return out;
}

/**
 * The unix instant (seconds) of a wall clock in a zone. A time repeated when DST
 * ends resolves to the later instant; one skipped when it starts, past the gap.
 */
export function zonedToUnix(c: WallClock, zone: string): number {
  const target = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute) / 1000;
  let guess = target;
  // Two corrections find the offset in force at the instant, across a DST change.
  for (let i = 0; i < 2; i++) {
    const w = wallClock(guess, zone);
    guess += target - Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) / 1000;
  }
  return guess;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function datePart(year: number, month: number, day: number, f: DateFormat): string {
  const y = pad(year, 4);
  const m = pad(month);
  const d = pad(day);
  if (f === 'DD-MM-YYYY') return `${d}-${m}-${y}`;
  if (f === 'MM-DD-YYYY') return `${m}-${d}-${y}`;
  return `${y}-${m}-${d}`;
}

function timePart(hour: number, minute: number, f: TimeFormat): string {
  if (f === '24') return `${pad(hour)}:${pad(minute)}`;
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h}:${pad(minute)} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** A calendar date `YYYY-MM-DD` (no zone: flight dates) in the company's date format. */
export function formatIsoDate(iso: string | null | undefined, s: Pick<DisplaySettings, 'dateFormat'>): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? '');
  return m ? datePart(Number(m[1]), Number(m[2]), Number(m[3]), s.dateFormat) : (iso ?? '');
}

/** A wall-clock `HH:MM` (flight clock fields) in the company's time format. */
export function formatClock(hhmm: string | null | undefined, s: Pick<DisplaySettings, 'timeFormat'>): string {
  const m = /^(\d{1,2}):(\d{2})/.exec(hhmm ?? '');
  return m ? timePart(Number(m[1]), Number(m[2]), s.timeFormat) : '';
}

/** The date of a unix instant in `zone`. */
export function formatDate(unix: number | null | undefined, s: DisplaySettings, zone = s.companyZone): string {
  if (unix === null || unix === undefined || !Number.isFinite(unix)) return '';
  const c = wallClock(unix, zone);
  return datePart(c.year, c.month, c.day, s.dateFormat);
}

/** The time of day of a unix instant in `zone`. */
export function formatTime(unix: number | null | undefined, s: DisplaySettings, zone = s.companyZone): string {
  if (unix === null || unix === undefined || !Number.isFinite(unix)) return '';
  const c = wallClock(unix, zone);
  return timePart(c.hour, c.minute, s.timeFormat);
}

export function formatDateTime(unix: number | null | undefined, s: DisplaySettings, zone = s.companyZone): string {
  if (unix === null || unix === undefined || !Number.isFinite(unix)) return '';
  const c = wallClock(unix, zone);
  return `${datePart(c.year, c.month, c.day, s.dateFormat)} ${timePart(c.hour, c.minute, s.timeFormat)}`;
}

/**
 * A deadline. MEL windows end at company midnight (00:00 after the last day),
 * which reads better as "end of" that last day than as 00:00 of the next one.
 */
export function formatDeadline(unix: number | null | undefined, s: DisplaySettings, zone = s.companyZone): string {
  if (unix === null || unix === undefined || !Number.isFinite(unix)) return '';
  const c = wallClock(unix, zone);
  if (c.hour === 0 && c.minute === 0) return `end of ${formatDate(unix - 1, s, zone)}`;
  return formatDateTime(unix, s, zone);
}

/** Seconds as hours: `1.5` (decimal, one decimal) or `1:30` (time, to the nearest minute). */
export function formatDuration(seconds: number | null | undefined, s: Pick<DisplaySettings, 'durationFormat'>): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '';
  const sign = seconds < 0 ? '-' : '';
  const abs = Math.abs(seconds);
  if (s.durationFormat === 'decimal') return `${sign}${(Math.round(abs / 360) / 10).toFixed(1)}`;
  const minutes = Math.round(abs / 60);
  return `${sign}${Math.floor(minutes / 60)}:${pad(minutes % 60)}`;
}

/** `YYYY-MM-DD` of a unix instant in `zone` (values of date inputs). */
export function isoDateIn(unix: number, zone: string): string {
  const c = wallClock(unix, zone);
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}`;
}

/** Company midnight ending the day `YYYY-MM-DD` (00:00 of the next day in `zone`), or null for a malformed date. */
export function endOfDay(iso: string, zone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return null;
  // Date.UTC rolls day 32 over into the next month, so the next day is plain arithmetic.
  const next = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1));
  return zonedToUnix(
    { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0 },
    zone,
  );
}

/**
 * The zone to print beside a time shown in `zone` (issue 28 item 7): empty
 * while the company and flight zones agree (nothing to tell apart), else the
 * zone's name, so the same lesson reads "09:00–11:00 Europe/Madrid" in the
 * schedule and "08:00–10:00 UTC" in the logbook, never two bare times.
 */
export function zoneTag(zone: string, s: Pick<DisplaySettings, 'companyZone' | 'flightZone'>): string {
  return s.companyZone === s.flightZone ? '' : zone.replace(/_/g, ' ');
}

/** `text` followed by its zone tag when the company and flight zones differ. */
export function withZone(text: string, zone: string, s: Pick<DisplaySettings, 'companyZone' | 'flightZone'>): string {
  const tag = zoneTag(zone, s);
  return tag && text ? `${text} ${tag}` : text;
}

/** Hours of a 24-hour picker, labelled in the company's time format ("13" or "1 PM"). */
export function hourOptions(s: Pick<DisplaySettings, 'timeFormat'>): Array<{ value: string; label: string }> {
  return Array.from({ length: 24 }, (_, h) => ({
    value: pad(h),
    label: s.timeFormat === '24' ? pad(h) : `${h % 12 === 0 ? 12 : h % 12} ${h < 12 ? 'AM' : 'PM'}`,
  }));
}
