import type {
  AircraftDoc,
  AircraftReportDoc,
  BookingDoc,
  FlightDoc,
  MaintenanceJobDoc,
  PersonalDoc,
  ReferenceDoc,
  UserDoc,
} from '@ops/shared';
import type { MessageId } from '@ops/shared/i18n/index';
import type { ReadinessLine, ReadinessSubject } from '@ops/shared/rules/readiness/readiness';
import { renderText } from '@ops/shared/rules/readiness/text';
import { seatsFor } from '@ops/shared/rules/schedules/booking';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useCompany, useDocs, useUsers, useWorkspace } from '../../hooks.ts';
import { useLocale, useT } from '../../i18n.tsx';
import { useDeviceDuty } from '../duty/device-duty.ts';
import { type DeviceData, deviceReadiness, heldWeather, keepWeather, policyOf } from './device-readiness.ts';
import './readiness.css';

const LEVEL_WORD: Record<ReadinessLine['level'], MessageId> = {
  ok: 'readiness.levelOk',
  warn: 'readiness.levelWarn',
  block: 'readiness.levelBlock',
};
const CHECK_NAME: Record<ReadinessLine['code'], MessageId> = {
  BALANCE: 'readiness.nameBalance',
  CERTIFICATES: 'readiness.nameCertificates',
  CURRENCY: 'readiness.nameCurrency',
  MAINTENANCE: 'readiness.nameMaintenance',
  MEL: 'readiness.nameMel',
  DUTY: 'readiness.nameDuty',
  WEATHER: 'readiness.nameWeather',
};

/** Every local document the device-side rule reads, live. */
function useDeviceData(): Omit<DeviceData, 'now' | 'settings' | 'pilotGroups'> {
  const ws = useWorkspace();
  const { display } = useCompany();
  const { docs: flights } = useDocs<FlightDoc>('flights');
  const { docs: bookings } = useDocs<BookingDoc>('bookings', { selector: { status: 'BOOKED' } });
  const { docs: personal } = useDocs<PersonalDoc>('personal');
  const { docs: flightTypes } = useDocs<ReferenceDoc>('reference', { selector: { type: 'flight_type' } });
  const { docs: jobs } = useDocs<MaintenanceJobDoc>('maintenance_job');
  const { docs: reports } = useDocs<AircraftReportDoc>('aircraft_report');
  const users = useUsers();
  const duty = useDeviceDuty();
  return useMemo(
    () => ({
      me: ws.user.id,
      myRole: ws.user.user_group_id,
      zone: display.companyZone,
      flights,
      bookings,
      personal,
      flightTypes,
      jobs,
      reports,
      duty,
      roles: new Map([...users.values()].map((u: UserDoc) => [u.id, Number(u.user_group_id)])),
      weather: heldWeather,
    }),
    [ws.user, display.companyZone, flights, bookings, personal, flightTypes, jobs, reports, duty, users],
  );
}

export interface PlanInput {
  id?: string;
  aircraft_id: string;
  pilot_id: string;
  instructor_id: string | null;
  flight_type_id: string;
  start: number;
  end: number;
}

/** The departure airport of a plan: the aircraft's base airport, as the server decides it. */
function useAirportOf(aircraftId: string | null): string | null {
  const { docs: aircraft } = useDocs<AircraftDoc>('aircraft');
  const { docs: bases } = useDocs<ReferenceDoc>('reference', { selector: { type: 'base' } });
  const a = aircraft.find((x) => x.id === aircraftId);
  const base = bases.find((b) => b.id === a?.base_id);
  return ((base?.data?.Base as { airport_id?: string } | undefined)?.airport_id ?? null) || null;
}

type Source = { kind: 'plan'; plan: PlanInput } | { kind: 'flight'; flight: FlightDoc };

/**
 * One line per check, green / amber / red with the reason and what would fix
 * it. Online the server answers (and the device keeps the policy and the
 * weather it used); offline the device computes the same rule from what it holds.
 */
export function ReadinessPanel({ source }: { source: Source }) {
  const ws = useWorkspace();
  const t = useT();
  const { locale } = useLocale();
  const data = useDeviceData();
  const { docs: flightTypes } = useDocs<ReferenceDoc>('reference', { selector: { type: 'flight_type' } });
  const planAirport = useAirportOf(source.kind === 'plan' ? source.plan.aircraft_id : null);
  const [server, setServer] = useState<{ key: string; lines: ReadinessLine[] } | null>(null);
  // The company's policy as replicated to this device (read-only), also when it never opened a panel online.
  const { docs: policyDocs } = useDocs<ReferenceDoc>('reference', { selector: { type: 'readiness' } });
  const policy = useMemo(() => policyOf(policyDocs[0]), [policyDocs]);

  const subject = useMemo<ReadinessSubject | null>(() => {
    if (source.kind === 'flight') {
      const f = source.flight;
      const start = Number(f.offblocks ?? 0);
      if (!start) return null;
      return {
        start,
        end: Number(f.onblocks ?? start + 3600),
        aircraft_id: f.aircraft_id,
        flight_type_id: f.flight_type_id,
        pic_id: f.pic_id,
        pic_role: null,
        sic_id: f.sic_id,
        supervisor_id: f.supervisor_id,
        billed_id: f.pic_id,
        pax: Number(f.pax ?? 0),
        night: Number(f.night_flight_time ?? 0) > 0,
        departure_airport: f.departure_airport,
      };
    }
    const p = source.plan;
    if (!p.aircraft_id || !p.pilot_id || !p.flight_type_id || !(p.end > p.start)) return null;
    const type = flightTypes.find((t) => t.id === p.flight_type_id)?.data?.FlightType as
      | { pic_flight_time: string; sic_flight_time: string; supervisor_flight_time: string }
      | undefined;
    const seats = type
      ? seatsFor(type, p.pilot_id, p.instructor_id)
      : { pic_id: p.pilot_id, sic_id: null, supervisor_id: p.instructor_id };
    return {
      start: p.start,
      end: p.end,
      aircraft_id: p.aircraft_id,
      flight_type_id: p.flight_type_id,
      ...seats,
      pic_role: null,
      billed_id: p.pilot_id,
      pax: 0,
      night: false,
      departure_airport: planAirport,
    };
  }, [source, flightTypes, planAirport]);

  const key = JSON.stringify([subject, source.kind === 'flight' ? source.flight.id : source.plan.id]);
  // The latest subject and source for the fetch, which runs only when what they say changes (`key`).
  const latest = useRef({ subject, source });
  latest.current = { subject, source };
  useEffect(() => {
    const { subject, source } = latest.current;
    if (!subject || !navigator.onLine) return;
    let live = true;
    const timer = setTimeout(async () => {
      try {
        type Answer = { lines: ReadinessLine[]; weather?: { icao: string; metar: string | null; taf: string | null } };
        const r =
          source.kind === 'flight'
            ? await ws.rest<Answer>('GET', `/flights/readiness/${source.flight.id}.json`)
            : await ws.rest<Answer>('POST', '/schedules/readiness.json', {
                ...source.plan,
                departure_airport: subject.departure_airport,
              });
        // The reports the server's WEATHER line used, kept for offline answers (one request: a provider
        // that is down costs no failed request of its own).
        if (r.weather && (r.weather.metar || r.weather.taf))
          keepWeather(r.weather.icao, {
            metar: r.weather.metar,
            taf: r.weather.taf,
            fetched: Math.floor(Date.now() / 1000),
          });
        if (live) setServer({ key, lines: r.lines });
      } catch {
        // Offline or refused: the device's own answer below stays.
      }
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, ws]);

  const local = useMemo(() => {
    if (!subject || !policy) return null;
    const except =
      source.kind === 'flight' ? { flightId: source.flight.id } : source.plan.id ? { bookingId: source.plan.id } : {};
    return deviceReadiness(
      subject,
      { ...data, settings: policy.settings, pilotGroups: policy.pilotGroups, now: Math.floor(Date.now() / 1000) },
      except,
    );
  }, [subject, policy, data, source]);

  const fromServer = server && server.key === key && navigator.onLine;
  const lines = fromServer ? server.lines : local;
  if (!subject) return null;
  if (!lines)
    return (
      <p className="muted small" data-testid="readiness-panel">
        {t('readiness.firstOnline')}
      </p>
    );
  if (!lines.length) return null;
  return (
    <section className="readiness-panel" aria-label={t('readiness.panel')} data-testid="readiness-panel">
      <h4>
        {t('readiness.panel')} <span className="muted small">{fromServer ? '' : t('readiness.offline')}</span>
      </h4>
      <ul>
        {lines.map((l) => (
          <li
            key={l.code}
            className={`readiness-line ${l.level}`}
            data-testid="readiness-line"
            data-code={l.code}
            data-level={l.level}
          >
            <strong>{t('readiness.line', { check: t(CHECK_NAME[l.code]), level: t(LEVEL_WORD[l.level]) })}</strong>{' '}
            {/* The rule's sentence in the reader's language; a line without a message id stays as the server wrote it. */}
            {l.text ? renderText(t, l.text, locale) : l.message}
            {l.fix && l.level !== 'ok' ? (
              <span className="fix"> {l.fix_text ? renderText(t, l.fix_text, locale) : l.fix}</span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
