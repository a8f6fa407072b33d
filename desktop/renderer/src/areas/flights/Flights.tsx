import {
  type AircraftDoc,
  type AircraftReportDoc,
  type CommandDoc,
  type FlightDoc,
  type OutcomeDoc,
  PERMISSION_KEYS,
  type ReferenceDoc,
  uuidv7,
} from '@ops/shared';
import { createFlightRefusal, type FlightPolicyActor } from '@ops/shared/rules/flights/policy';
import { type DeviceDuty, deviceDispatchRefusal, useDeviceDuty } from '../duty/device-duty.ts';
import { type FormEvent, useMemo, useState } from 'react';
import { commandsByTarget, describeCommand, outcomesByTarget } from '../../decisions.ts';
import {
  type FlightForm,
  FLIGHT_RULES,
  cancelEffect,
  confirmProblem,
  emptyForm,
  flightActions,
  flightDocFrom,
  formOf,
  localOverlaps,
  shownStatus,
} from './flights.ts';
import { type DisplaySettings, formatClock, formatDuration, formatIsoDate, isoDateIn, zoneTag } from '../../format.ts';
import {
  fullName,
  useCommands,
  useCompany,
  useDeferred,
  useDocs,
  useMarks,
  useNetwork,
  useNow,
  useOutcomes,
  usePermissions,
  useSyncField,
  useUsers,
  useWorkspace,
} from '../../hooks.ts';
import { fleetBoard, openItems, rowBlockers } from '../aircraft-reports/techlog.ts';
import { blockedRefusal } from '@ops/shared/rules/aircraft-reports/blockers';
import { Badge, DecisionNote, Empty, Field, PendingBadge } from '../../ui.tsx';
import { type DeferredCommand, markKey, RestError } from '../../workspace.ts';
import { FlightWeather } from '../reports/FlightWeather.tsx';
import { ReadinessPanel } from '../readiness/ReadinessPanel.tsx';
import { useT } from '../../i18n.tsx';

const STATUS_TONE: Record<string, 'info' | 'warn' | 'ok' | 'danger' | 'neutral'> = {
  DRAFT: 'neutral',
  SCHEDULED: 'info',
  DELAYED: 'warn',
  DISPATCHED: 'info',
  LANDED: 'ok',
  CANCELED: 'danger',
  DELETED: 'danger',
};

interface FlightContext {
  display: DisplaySettings;
  registration: Map<string, string>;
  users: Map<string, { name: string; surname: string }>;
  /** Aircraft that may not be dispatched now, with the refusal in words. */
  blocked: Map<string, string>;
  all: FlightDoc[];
  online: boolean;
  /** The signed-in person as the shared flights policy reads them: every button asks it. */
  actor: FlightPolicyActor;
  passwordRequired: boolean;
  now: number;
  /** Duty inputs on the device (issue 30): dispatch is refused here with the server's rule. */
  duty: DeviceDuty;
}

/** The signed-in person's flights: create and edit offline, confirm and dispatch as commands, cancel online. */
export default function Flights() {
  const ws = useWorkspace();
  const t = useT();
  const me = ws.user.id;
  const query = useMemo(
    () => ({ selector: { $or: [{ pic_id: me }, { sic_id: me }, { supervisor_id: me }, { user_id: me }] } }),
    [me],
  );
  const { docs: flights, ready } = useDocs<FlightDoc>('flights', query);
  const { docs: aircraft } = useDocs<AircraftDoc>('aircraft');
  const { docs: reports } = useDocs<AircraftReportDoc>('aircraft_report', { selector: { status: { $ne: 'CLOSED' } } });
  const { docs: commands } = useCommands();
  const { docs: outcomes } = useOutcomes();
  const deferred = useDeferred();
  const marks = useMarks();
  const users = useUsers();
  const { display, flags } = useCompany();
  const permissions = usePermissions(ws.user.user_group_id);
  const serverAnswers = useSyncField('online');
  const network = useNetwork();
  const now = useNow();
  const duty = useDeviceDuty();
  const [editing, setEditing] = useState<FlightDoc | 'new' | null>(null);
  const actor: FlightPolicyActor = useMemo(
    () => ({
      userId: me,
      role: ws.user.user_group_id,
      perms: Object.fromEntries(PERMISSION_KEYS.map((k) => [k, permissions[k] === true])) as FlightPolicyActor['perms'],
    }),
    [me, ws.user.user_group_id, permissions],
  );
  const createRefusal = createFlightRefusal(actor);
  const [showPast, setShowPast] = useState(true);

  const sorted = useMemo(() => [...flights].sort((a, b) => b.starts - a.starts || (a.id < b.id ? 1 : -1)), [flights]);
  const byTarget = useMemo(() => commandsByTarget(commands), [commands]);
  const outcomesOf = useMemo(() => outcomesByTarget(outcomes), [outcomes]);
  const ctx: FlightContext = useMemo(() => {
    const byId = new Map(aircraft.map((a) => [a.id, a]));
    const board = fleetBoard(aircraft, openItems(reports, byId, [], now, display.companyZone), t);
    return {
      display,
      registration: new Map(aircraft.map((a) => [a.id, a.registration])),
      users,
      // The server's rule on local data (issue 28): grounding reports and expired items refuse dispatch offline too.
      blocked: new Map(
        board.flatMap((r) => {
          const refusal = blockedRefusal(r.aircraft.registration, 'dispatched', rowBlockers(r, undefined, t), t);
          return refusal ? [[r.aircraft.id, refusal] as const] : [];
        }),
      ),
      all: flights,
      online: serverAnswers && network,
      actor,
      passwordRequired: flags.require_flight_password === true,
      now,
      duty,
    };
  }, [aircraft, reports, now, display, users, flights, serverAnswers, network, actor, flags, duty, t]);
  const shown = showPast ? sorted : sorted.filter((f) => !['LANDED', 'CANCELED', 'DELETED'].includes(f.status));

  return (
    <section aria-labelledby="flights-title">
      <div className="screen-head">
        <h2 id="flights-title">{t('flights.title')}</h2>
        {createRefusal === null && (
          <button type="button" onClick={() => setEditing('new')}>
            {t('flights.newFlight')}
          </button>
        )}
        <label className="check">
          <input type="checkbox" checked={showPast} onChange={(e) => setShowPast(e.target.checked)} />{' '}
          {t('flights.showPast')}
        </label>
        <span className="muted small">{t('flights.timesIn', { zone: display.flightZone })}</span>
      </div>
      {createRefusal && (
        <p className="muted small" data-testid="flights-create-refusal">
          {createRefusal}
        </p>
      )}
      {editing === 'new' && <FlightEditor flight={null} onDone={() => setEditing(null)} />}
      {ready && shown.length === 0 && <Empty>{t('flights.noFlights')}</Empty>}
      <div className="flight-list" data-testid="flights">
        {shown.map((f) =>
          editing !== 'new' && editing?.id === f.id ? (
            <FlightEditor key={f.id} flight={f} onDone={() => setEditing(null)} />
          ) : (
            <FlightRow
              key={f.id}
              flight={f}
              ctx={ctx}
              locallyPending={marks.has(markKey('flights', f.id))}
              waiting={deferred.filter((d) => d.after === markKey('flights', f.id))}
              commands={byTarget.get(`flights:${f.id}`) ?? []}
              outcome={outcomesOf.get(`flights:${f.id}`)?.[0]}
              onEdit={() => setEditing(f)}
            />
          ),
        )}
      </div>
    </section>
  );
}

function FlightRow({
  flight: f,
  ctx,
  locallyPending,
  waiting,
  commands,
  outcome,
  onEdit,
}: {
  flight: FlightDoc;
  ctx: FlightContext;
  locallyPending: boolean;
  waiting: DeferredCommand[];
  commands: CommandDoc[];
  outcome?: OutcomeDoc;
  onEdit(): void;
}) {
  const ws = useWorkspace();
  const t = useT();
  const [note, setNote] = useState<string | null>(null);
  const [panel, setPanel] = useState<'none' | 'cancel' | 'password'>('none');
  const registration = f.aircraft_id ? (ctx.registration.get(f.aircraft_id) ?? null) : null;
  const [showReadiness, setShowReadiness] = useState(false);
  const { display } = ctx;
  const status = shownStatus(f, ctx.now);
  const actions = flightActions(ctx.actor, f, ctx.now);
  const pendingCommands = commands.filter((c) => c.status === 'pending');
  const latestDecided = commands.find((c) => c.status !== 'pending');
  const overlaps = actions.confirm ? localOverlaps(f, ctx.all) : [];
  const blocked = f.aircraft_id ? ctx.blocked.get(f.aircraft_id) : undefined;
  const busy = pendingCommands.length > 0 || waiting.length > 0;

  const confirm = async () => {
    const problem = confirmProblem(f, t);
    if (problem) return setNote(problem);
    if (ctx.passwordRequired) {
      // A password never travels in a stored command: confirming needs the server now.
      if (!ctx.online) return setNote(t('flights.passwordOffline'));
      return setPanel('password');
    }
    setNote(null);
    await ws.run('flight.confirm', { flight_id: f.id }, { collection: 'flights', id: f.id });
  };
  const dispatch = async () => {
    // Decided on the device with the server's rule: nothing is queued for an aircraft on the ground.
    if (blocked) return setNote(blocked);
    // Duty hook (issue 30): the crew's limits decided on the device; the server decides again.
    const dutyStop = deviceDispatchRefusal(ctx.duty, f);
    if (dutyStop) return setNote(dutyStop.message);
    setNote(null);
    await ws.run('flight.dispatch', { flight_id: f.id }, { collection: 'flights', id: f.id });
  };

  return (
    <article
      className={`flight ${locallyPending || busy ? 'is-pending' : ''}`}
      data-flight-id={f.id}
      data-callsign={f.callsign ?? ''}
    >
      <header>
        <strong>{formatIsoDate(f.date, display)}</strong>
        <span>{f.callsign ?? t('flights.noCallsign')}</span>
        <span>
          {f.aircraft_id
            ? (ctx.registration.get(f.aircraft_id) ?? t('flights.aircraftUnknown'))
            : t('flights.noAircraft')}
        </span>
        <span>
          {f.departure_airport ?? '····'} → {f.landing_airport ?? '····'}
        </span>
        <Badge tone={STATUS_TONE[status] ?? 'neutral'}>{t('flights.status', { status })}</Badge>
        {locallyPending && <PendingBadge what={t('flights.savedHere')} />}
        {waiting.map((d) => (
          <PendingBadge key={d.id} what={t('flights.afterSent', { what: describeCommand(d).toLowerCase() })} />
        ))}
        {pendingCommands.map((c) => (
          <PendingBadge key={c.id} what={describeCommand(c).toLowerCase()} />
        ))}
      </header>
      <p className="flight-times">
        {f.offblocks_time ? (
          <>
            {t('flights.blocksRange', {
              from: formatClock(f.offblocks_time, display),
              to: formatClock(f.onblocks_time, display),
            })}
            {f.takeoff_time
              ? ` · ${t('flights.airRange', { from: formatClock(f.takeoff_time, display), to: formatClock(f.landing_time, display) })}`
              : ''}
            {zoneTag(display.flightZone, display) && ` ${zoneTag(display.flightZone, display)}`} ·{' '}
            {t('flights.blockDuration', { duration: formatDuration(f.block_time, display) })} ·{' '}
            {t('flights.flightDuration', { duration: formatDuration(f.flight_time, display) })}
          </>
        ) : (
          <span className="muted">{t('flights.noTimes')}</span>
        )}
        {' · '}
        {t('flights.picName', { name: fullName(ctx.users.get(f.pic_id ?? '')) || '—' })}
        {f.sic_id ? ` · ${t('flights.sicName', { name: fullName(ctx.users.get(f.sic_id)) })}` : ''}
      </p>
      {overlaps.length > 0 && (
        <p className="form-warning">
          {t('flights.overlaps', { flights: overlaps.map((o) => o.callsign ?? t('flights.aFlight')).join(', ') })}
        </p>
      )}
      {blocked && actions.dispatch && (
        <p className="form-warning" data-testid="dispatch-blocked">
          {blocked}
        </p>
      )}
      <DecisionNote command={latestDecided} outcome={outcome} display={display} />
      {note && <p className="form-warning">{note}</p>}
      {(showReadiness || latestDecided?.status === 'rejected') && actions.dispatch && (
        <ReadinessPanel source={{ kind: 'flight', flight: f }} />
      )}
      <div className="actions-row">
        {actions.edit && (
          <button
            type="button"
            className="secondary small"
            onClick={onEdit}
            disabled={busy}
            title={busy ? t('flights.waitServer') : undefined}
          >
            {t('flights.edit')}
          </button>
        )}
        {actions.dispatch && (
          <button
            type="button"
            className="secondary small"
            onClick={dispatch}
            disabled={busy || !!blocked}
            title={blocked ?? (busy ? t('flights.waitServer') : undefined)}
          >
            {t('flights.dispatch')}
          </button>
        )}
        {actions.dispatch && (
          <button type="button" className="secondary small" onClick={() => setShowReadiness(!showReadiness)}>
            {t('flights.readiness')}
          </button>
        )}
        {actions.confirm && (
          <button
            type="button"
            className="small"
            onClick={confirm}
            disabled={busy}
            title={busy ? t('flights.waitServer') : undefined}
          >
            {t('flights.confirm')}
          </button>
        )}
        {(actions.cancel || actions.delete) && (
          <button
            type="button"
            className="danger small"
            onClick={() => setPanel(panel === 'cancel' ? 'none' : 'cancel')}
            disabled={!ctx.online || locallyPending}
            title={
              !ctx.online ? t('flights.cancelOfflineTitle') : locallyPending ? t('flights.waitReached') : undefined
            }
          >
            {actions.delete ? t('flights.deleteFromLogbook') : t('flights.cancelFlight')}
          </button>
        )}
        {(actions.cancel || actions.delete) && !ctx.online && (
          <span className="muted small">{t('flights.cancelNeedsConnection')}</span>
        )}
        {(actions.cancel || actions.delete) && ctx.online && locallyPending && (
          <span className="muted small">{t('flights.cancelWaits')}</span>
        )}
      </div>
      {panel === 'cancel' && (
        <CancelForm
          flight={f}
          effect={cancelEffect(f, registration, (sec) => formatDuration(sec, display), t)}
          onDone={() => setPanel('none')}
        />
      )}
      {panel === 'password' && <PasswordConfirm flight={f} onDone={() => setPanel('none')} />}
    </article>
  );
}

/** POST /flights/cancel.json: a REST action, online only (the flights area offers no cancel command). */
function CancelForm({ flight, effect, onDone }: { flight: FlightDoc; effect: string; onDone(): void }) {
  const landed = flight.status === 'LANDED';
  const ws = useWorkspace();
  const t = useT();
  const [reason, setReason] = useState('');
  const [notify, setNotify] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await ws.rest('POST', '/flights/cancel.json', { id: flight.id, reason: reason.trim(), notify });
      ws.client.resync();
      onDone();
    } catch (err) {
      setError(err instanceof RestError ? err.message : String(err));
    }
  };
  return (
    <form
      className="inline-form"
      onSubmit={submit}
      aria-label={landed ? t('flights.deleteFlight') : t('flights.cancelFlight')}
    >
      <p className="form-warning" data-testid="cancel-effect">
        {effect}
      </p>
      <Field label={t('flights.reason')} wide>
        <input value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={500} />
      </Field>
      <label className="check">
        <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.target.checked)} /> {t('flights.tellCrew')}
      </label>
      <button type="submit" className="danger">
        {landed ? t('flights.deleteNow') : t('flights.cancelNow')}
      </button>
      <button type="button" className="secondary" onClick={onDone}>
        {t('flights.keepFlight')}
      </button>
      {error && <p className="form-error">{error}</p>}
    </form>
  );
}

/** Companies that require the password to confirm: POST /flights/confirm/{id}.json with it, online. */
function PasswordConfirm({ flight, onDone }: { flight: FlightDoc; onDone(): void }) {
  const ws = useWorkspace();
  const t = useT();
  const [pass, setPass] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await ws.rest('POST', `/flights/confirm/${encodeURIComponent(flight.id)}.json`, { pass });
      ws.client.resync();
      onDone();
    } catch (err) {
      setError(err instanceof RestError ? err.message : String(err));
    }
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label={t('flights.confirmWithPassword')}>
      <Field label={t('flights.passwordToConfirm')}>
        <input
          type="password"
          value={pass}
          onChange={(e) => setPass(e.target.value)}
          required
          autoComplete="current-password"
        />
      </Field>
      <button type="submit">{t('flights.confirm')}</button>
      {error && <p className="form-error">{error}</p>}
    </form>
  );
}

function FlightEditor({ flight, onDone }: { flight: FlightDoc | null; onDone(): void }) {
  const ws = useWorkspace();
  const t = useT();
  const { docs: aircraft } = useDocs<AircraftDoc>('aircraft');
  const { docs: types } = useDocs<ReferenceDoc>('reference', { selector: { type: 'flight_type' } });
  const users = useUsers();
  const { display } = useCompany();
  const [id] = useState(() => flight?.id ?? uuidv7());
  const [form, setForm] = useState<FlightForm>(() =>
    flight ? formOf(flight) : emptyForm(ws.user.id, isoDateIn(Math.floor(Date.now() / 1000), display.flightZone)),
  );
  const [tried, setTried] = useState(false);
  const set = (k: keyof FlightForm) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));
  const nowSec = Math.floor(Date.now() / 1000);
  const result = flightDocFrom(
    form,
    flight,
    { id, me: ws.user.id },
    display.flightZone,
    nowSec,
    isoDateIn(nowSec, display.flightZone),
    t,
  );
  const errors = !result.ok && tried ? result.errors : {};
  const pilots = useMemo(
    () => [...users.values()].filter((u) => u.active && u.pilot).sort((a, b) => fullName(a).localeCompare(fullName(b))),
    [users],
  );
  const flightTypes = useMemo(
    () =>
      types
        .map((t) => (t.data?.FlightType ?? null) as { id: string; name: string; deleted?: boolean } | null)
        .filter((t): t is { id: string; name: string; deleted?: boolean } => !!t && !t.deleted)
        .sort((a, b) => a.name.localeCompare(b.name)),
    [types],
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!result.ok) return;
    await ws.save('flights', result.doc);
    onDone();
  };

  return (
    // noValidate: the shared rule's sentences show beside the fields, not the browser's bubbles.
    <form
      className="card-form"
      onSubmit={submit}
      aria-label={flight ? t('flights.editFlight') : t('flights.newFlight')}
      noValidate
    >
      <h3>{flight ? t('flights.editFlight') : t('flights.newFlight')}</h3>
      <p className="muted small">{t('flights.savedNote', { zone: display.flightZone })}</p>
      <div className="grid">
        <Field label={t('flights.date')} error={errors.date}>
          <input type="date" name="date" value={form.date} onChange={set('date')} />
        </Field>
        {(!flight || flight.status === 'DRAFT' || flight.status === 'SCHEDULED') && (
          <Field label={t('flights.statusLabel')}>
            <select
              name="status"
              value={form.status}
              onChange={(e) =>
                setForm((f) => ({ ...f, status: e.target.value === 'SCHEDULED' ? 'SCHEDULED' : 'DRAFT' }))
              }
            >
              <option value="DRAFT">{t('flights.draft')}</option>
              <option value="SCHEDULED">{t('flights.scheduled')}</option>
            </select>
          </Field>
        )}
        <Field label={t('flights.callsign')} error={errors.callsign}>
          <input name="callsign" value={form.callsign} onChange={set('callsign')} />
        </Field>
        <Field label={t('flights.aircraft')} error={errors.aircraft_id}>
          <select name="aircraft_id" value={form.aircraft_id} onChange={set('aircraft_id')}>
            <option value="">—</option>
            {aircraft
              .filter((a) => a.active || a.id === form.aircraft_id)
              .sort((a, b) => a.registration.localeCompare(b.registration))
              .map((a) => (
                <option key={a.id} value={a.id}>
                  {a.registration}
                </option>
              ))}
          </select>
        </Field>
        <Field label={t('flights.flightType')}>
          <select name="flight_type_id" value={form.flight_type_id} onChange={set('flight_type_id')}>
            <option value="">—</option>
            {flightTypes.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('flights.pic')}>
          <select name="pic_id" value={form.pic_id} onChange={set('pic_id')}>
            <option value="">—</option>
            {pilots.map((u) => (
              <option key={u.id} value={u.id}>
                {fullName(u)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('flights.sic')}>
          <select name="sic_id" value={form.sic_id} onChange={set('sic_id')}>
            <option value="">—</option>
            {pilots.map((u) => (
              <option key={u.id} value={u.id}>
                {fullName(u)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('flights.fromIcao')} error={errors.departure_airport}>
          <input
            name="departure_airport"
            value={form.departure_airport}
            onChange={set('departure_airport')}
            maxLength={4}
          />
        </Field>
        <Field label={t('flights.toIcao')} error={errors.landing_airport}>
          <input name="landing_airport" value={form.landing_airport} onChange={set('landing_airport')} maxLength={4} />
        </Field>
        <Field label={t('flights.offBlocks')} error={errors.offblocks_time}>
          <input type="time" name="offblocks_time" value={form.offblocks_time} onChange={set('offblocks_time')} />
        </Field>
        <Field label={t('flights.takeoff')} error={errors.takeoff_time}>
          <input type="time" name="takeoff_time" value={form.takeoff_time} onChange={set('takeoff_time')} />
        </Field>
        <Field label={t('flights.landing')} error={errors.landing_time}>
          <input type="time" name="landing_time" value={form.landing_time} onChange={set('landing_time')} />
        </Field>
        <Field label={t('flights.onBlocks')} error={errors.onblocks_time}>
          <input type="time" name="onblocks_time" value={form.onblocks_time} onChange={set('onblocks_time')} />
        </Field>
        <Field label={t('flights.landings')} error={errors.landings}>
          <input type="number" name="landings" min={0} max={999} value={form.landings} onChange={set('landings')} />
        </Field>
        <Field label={t('flights.rules')}>
          <select name="rules" value={form.rules} onChange={set('rules')}>
            <option value="">—</option>
            {FLIGHT_RULES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        <Field label={t('flights.remarks')} wide error={errors.remarks}>
          <input name="remarks" value={form.remarks} onChange={set('remarks')} />
        </Field>
      </div>
      <FlightWeather departure={form.departure_airport} landing={form.landing_airport} />
      {result.ok && result.doc.block_time > 0 && (
        <p className="muted">
          {t('flights.totals', {
            block: formatDuration(result.doc.block_time, display),
            flight: formatDuration(result.doc.flight_time, display),
          })}
        </p>
      )}
      {errors.time_zone && <p className="form-error">{errors.time_zone}</p>}
      <div className="actions-row">
        <button type="submit">{t('flights.saveFlight')}</button>
        {Object.keys(errors).length > 0 && (
          <span className="form-error" role="alert">
            {t('flights.notSaved')}
          </span>
        )}
        <button type="button" className="secondary" onClick={onDone}>
          {t('flights.cancel')}
        </button>
      </div>
    </form>
  );
}
