import { codeOf, humanRefusal } from '../../refusals.ts';
import { type AircraftDoc, type AircraftReportDoc, type CommandDoc, type OutcomeDoc, uuidv7 } from '@ops/shared';
import {
  checkExtension,
  INTERVAL_TYPES,
  LIMITATION_CODES,
  MEL_CATEGORIES,
  SEVERITIES,
} from '@ops/shared/rules/aircraft-reports/mel';
import { canActOnMel, canBeReleaser } from '@ops/shared/rules/aircraft-reports/policy';
import { melItemStateOf } from '@ops/shared';
import { type FormEvent, useMemo, useState } from 'react';
import { commandsByTarget, outcomesByTarget } from '../../decisions.ts';
import { type DisplaySettings, endOfDay, formatDate, formatDateTime, isoDateIn, wallClock } from '../../format.ts';
import type { MelDeadline } from '@ops/shared/rules/aircraft-reports/mel';
import {
  fullName,
  useCommands,
  useCompany,
  useDismissed,
  useDocs,
  useMarks,
  useNetwork,
  useNow,
  useOutcomes,
  useSyncField,
  useUsers,
  useWorkspace,
} from '../../hooks.ts';
import { type BoardRow, closeEffect, fleetBoard, type ItemView, openItems } from './techlog.ts';
import { CloseReport } from './CloseReport.tsx';
import { JobFromReports } from './JobFromReports.tsx';
import { Badge, DecisionNote, Empty, Field, PendingBadge } from '../../ui.tsx';
import type { ScreenProps } from '../../nav.ts';
import { isAuditorRole as isAuditor } from '@ops/shared/rules/users/policy';
import { mayCloseAircraftReport, mayManageMel } from '@ops/shared/rules/aircraft-reports/policy';
import { mayWriteMaintenanceJobs } from '@ops/shared/rules/maintenance-jobs/policy';
import { markKey } from '../../workspace.ts';
import { groundsAircraft } from '@ops/shared/rules/aircraft-reports/blockers';
import { Photos } from '../uploads/Photos.tsx';
import { useLocale, useT } from '../../i18n.tsx';
import type { Translate } from '@ops/shared/i18n/index';
import { formatNumber } from '@ops/shared/i18n/format';

/** One aircraft's open reports; raise defects and MEL or CDL items; extend or close items. Works offline. */
/** The technical log screen of the aircraft in the route (`#techlog/<id>`). */
export default function TechLogScreen({ route, go }: Pick<ScreenProps, 'route' | 'go'>) {
  return <TechLog aircraftId={route.id} onPick={(id) => go({ screen: 'techlog', id })} />;
}

export function TechLog({ aircraftId, onPick }: { aircraftId?: string; onPick(id: string): void }) {
  const ws = useWorkspace();
  const t = useT();
  const { locale } = useLocale();
  const { docs: fleet, ready } = useDocs<AircraftDoc>('aircraft');
  const active = useMemo(
    () => fleet.filter((a) => a.active).sort((a, b) => a.registration.localeCompare(b.registration)),
    [fleet],
  );
  const aircraft = active.find((a) => a.id === aircraftId) ?? active[0];
  const reportsQuery = useMemo(() => ({ selector: { aircraft_id: aircraft?.id ?? '' } }), [aircraft?.id]);
  const { docs: reports } = useDocs<AircraftReportDoc>('aircraft_report', reportsQuery);
  const { docs: commands } = useCommands();
  const { docs: outcomes } = useOutcomes();
  const dismissed = useDismissed();
  const marks = useMarks();
  const { display } = useCompany();
  const users = useUsers();
  const now = useNow();
  const [form, setForm] = useState<'none' | 'defect' | 'mel'>('none');
  const role = ws.user.user_group_id;
  const serverAnswers = useSyncField('online');
  const network = useNetwork();
  const online = serverAnswers && network;
  // Kept here: the closed report's card leaves the list as soon as the close replicates.
  const [closedNote, setClosedNote] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const views = useMemo(() => {
    if (!aircraft) return [];
    const pending = commands.filter((c) => c.status === 'pending');
    return openItems(reports, new Map([[aircraft.id, aircraft]]), pending, now, display.companyZone).filter(
      (v) => v.report.aircraft_id === aircraft.id,
    );
  }, [aircraft, reports, commands, now, display.companyZone]);
  const row = useMemo(() => (aircraft ? fleetBoard([aircraft], views, t)[0] : null), [aircraft, views, t]);
  const byTarget = useMemo(() => commandsByTarget(commands), [commands]);
  const outcomesOf = useMemo(() => outcomesByTarget(outcomes), [outcomes]);
  // Raises the server refused never become reports: show them here until dismissed.
  const refusedRaises = commands.filter(
    (c) => c.name === 'mel.raise' && c.status === 'rejected' && !dismissed.has(c.id) && isForAircraft(c, aircraft?.id),
  );

  if (ready && !aircraft) return <Empty>{t('aircraft-reports.noAircraft')}</Empty>;
  if (!aircraft || !row) return null;
  const mayRaise = !isAuditor(role) && canActOnMel('raise', role, { isAssignedPilot: aircraft.user_id === ws.user.id });
  const mayManage = mayManageMel(role);
  const actor = { userId: ws.user.id, role };
  // A job gathers open reports of this aircraft that no job holds yet (Part B 4.2, grouping).
  const mayGroup = mayWriteMaintenanceJobs(actor);
  const selectable = (v: ItemView) =>
    mayGroup && !v.pending && !v.report.maintenance_job_id && !v.report.id.includes(':');
  const cardProps = (v: ItemView) => ({
    view: v,
    row,
    display,
    users,
    now,
    online,
    mayClose: mayCloseAircraftReport(actor, v.report),
    locallyPending: marks.has(markKey('aircraft_report', v.report.id)),
    outcome: outcomesOf.get(`aircraft_report:${v.report.id}`)?.[0],
    selected: selectable(v) ? selected.has(v.report.id) : null,
    onSelect: () => toggle(v.report.id),
    onClosed: (note: string) => setClosedNote(t('aircraft-reports.closedNote', { title: v.report.title, note })),
  });

  return (
    <section aria-labelledby="techlog-title">
      <div className="screen-head">
        <h2 id="techlog-title">{t('aircraft-reports.title')}</h2>
        <select
          aria-label={t('aircraft-reports.aircraft')}
          value={aircraft.id}
          onChange={(e) => onPick(e.target.value)}
        >
          {active.map((a) => (
            <option key={a.id} value={a.id}>
              {a.registration}
            </option>
          ))}
        </select>
        {row.grounded ? (
          <Badge tone="danger">{t('aircraft-reports.grounded')}</Badge>
        ) : row.blocked ? (
          <Badge tone="danger">{t('aircraft-reports.blocked')}</Badge>
        ) : (
          <Badge tone="ok">{t('aircraft-reports.dispatchable')}</Badge>
        )}
        <span className="muted">
          {t('aircraft-reports.summary', {
            model: aircraft.model_name,
            hours: formatNumber(Number(aircraft.hours ?? 0), locale, 1, 1),
            landings: aircraft.landings,
            flights: aircraft.flights,
          })}
        </span>
      </div>
      {row.blockReason && <p className="block-reason">{row.blockReason}</p>}
      {closedNote && (
        <p className="notice" role="status" data-testid="closed-note">
          {closedNote}
        </p>
      )}

      {refusedRaises.map((c) => (
        <div key={c.id} className="decision decision-rejected" role="alert">
          <strong>{t('aircraft-reports.notRaised')}</strong> {humanRefusal(c.reason, codeOf(c), t)} ({describeRaise(c)}){' '}
          <button type="button" className="link" onClick={() => ws.dismiss([c.id])}>
            {t('aircraft-reports.dismiss')}
          </button>
        </div>
      ))}

      {!isAuditor(role) && (
        <div className="actions-row">
          <button type="button" onClick={() => setForm(form === 'defect' ? 'none' : 'defect')}>
            {t('aircraft-reports.reportDefect')}
          </button>
          {mayRaise && (
            <button type="button" onClick={() => setForm(form === 'mel' ? 'none' : 'mel')}>
              {t('aircraft-reports.raiseMel')}
            </button>
          )}
        </div>
      )}
      {form === 'defect' && <DefectForm aircraft={aircraft} onDone={() => setForm('none')} />}
      {form === 'mel' && <MelForm aircraft={aircraft} onDone={() => setForm('none')} />}

      {mayGroup && (
        <JobFromReports
          aircraft={aircraft}
          reports={[...row.items, ...row.defects].filter((v) => selected.has(v.report.id)).map((v) => v.report)}
          online={online}
          onCreated={() => setSelected(new Set())}
        />
      )}

      <h3>{t('aircraft-reports.openMel')}</h3>
      {row.items.length === 0 && <Empty>{t('aircraft-reports.noMel')}</Empty>}
      <div className="report-list" data-testid="mel-items">
        {row.items.map((v) => (
          <ReportCard
            key={v.report.id}
            {...cardProps(v)}
            mayManage={mayManage}
            command={byTarget.get(`aircraft_report:${v.report.id}`)?.[0]}
          />
        ))}
      </div>
      <h3>{t('aircraft-reports.otherOpen')}</h3>
      {row.defects.length === 0 && <Empty>{t('aircraft-reports.noOther')}</Empty>}
      <div className="report-list" data-testid="defects">
        {row.defects.map((v) => (
          <ReportCard key={v.report.id} {...cardProps(v)} mayManage={false} />
        ))}
      </div>
    </section>
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isForAircraft = (c: CommandDoc, aircraftId: string | undefined) =>
  isObject(c.args.AircraftReport) && c.args.AircraftReport.aircraft_id === aircraftId;
const describeRaise = (c: CommandDoc) =>
  isObject(c.args.AircraftReport) ? String(c.args.AircraftReport.title ?? '') : '';

function ReportCard({
  view,
  row,
  display,
  users,
  now,
  online,
  mayManage,
  mayClose,
  locallyPending,
  command,
  outcome,
  selected,
  onSelect,
  onClosed,
}: {
  view: ItemView;
  row: BoardRow;
  display: DisplaySettings;
  users: Map<string, { name: string; surname: string }>;
  now: number;
  online: boolean;
  /** Extend MEL/CDL items (the MEL rule). */
  mayManage: boolean;
  /** Close the report: the same policy the server asks (`mayCloseAircraftReport`). */
  mayClose: boolean;
  locallyPending: boolean;
  command?: CommandDoc;
  outcome?: OutcomeDoc;
  /** Ticked for a new maintenance job; null when the report cannot be put in one. */
  selected: boolean | null;
  onSelect(): void;
  onClosed(note: string): void;
}) {
  const ws = useWorkspace();
  const t = useT();
  const [extending, setExtending] = useState(false);
  const [closing, setClosing] = useState(false);
  const r = view.report;
  const m = view.item;
  const raising = view.pending === 'raise';

  return (
    <article
      className={`report ${view.pending || locallyPending ? 'is-pending' : ''}`}
      data-report-id={r.id}
      data-title={r.title}
    >
      <header>
        <Badge tone={m ? 'info' : 'neutral'}>
          {m?.category
            ? t('aircraft-reports.typeCategory', {
                type: t('aircraft-reports.type', { type: r.type }),
                category: m.category,
              })
            : t('aircraft-reports.type', { type: r.type })}
        </Badge>
        <strong>
          {r.ata_chapter ? `ATA ${r.ata_chapter} · ` : ''}
          {r.title}
        </strong>
        {view.status && (
          <Badge tone={MEL_STATUS_TONE[view.status] ?? 'neutral'}>
            {t('aircraft-reports.melStatus', { status: view.status })}
          </Badge>
        )}
        {groundsAircraft(r) && <Badge tone="danger">{t('aircraft-reports.groundsAircraft')}</Badge>}
        {r.maintenance_job_id && <Badge tone="info">{t('aircraft-reports.inJob')}</Badge>}
        {selected !== null && (
          <label className="check">
            <input type="checkbox" checked={selected} onChange={onSelect} /> {t('aircraft-reports.selectForJob')}
          </label>
        )}
        {view.pending && <PendingBadge what={view.pending} />}
        {locallyPending && !view.pending && <PendingBadge />}
      </header>
      <dl>
        <dt>{t('aircraft-reports.reported')}</dt>
        <dd>
          {r.user_id
            ? t('aircraft-reports.reportedBy', {
                when: formatDateTime(r.created, display),
                name: fullName(users.get(r.user_id)) || t('aircraft-reports.someone'),
              })
            : formatDateTime(r.created, display)}
        </dd>
        <dt>{t('aircraft-reports.severity')}</dt>
        <dd>{t('aircraft-reports.severityName', { severity: r.severity })}</dd>
        {m && (
          <>
            <dt>{t('aircraft-reports.interval')}</dt>
            <dd>{intervalText(m, display, t)}</dd>
            <dt>{t('aircraft-reports.deadline')}</dt>
            <dd className="deadline">
              {m.extended
                ? t('aircraft-reports.extendedDeadline', { deadline: deadlineWords(view.deadline, display, t) })
                : deadlineWords(view.deadline, display, t)}
            </dd>
            {m.MelItemLimitation.length > 0 && (
              <>
                <dt>{t('aircraft-reports.limitations')}</dt>
                <dd>
                  {m.MelItemLimitation.map((l) => (
                    <Badge key={l.id} tone="warn">
                      {t('aircraft-reports.limitation', { code: l.code })}
                      {l.value ? ` ${l.value}` : ''}
                    </Badge>
                  ))}
                </dd>
              </>
            )}
            {m.mel_reference && (
              <>
                <dt>{t('aircraft-reports.melReference')}</dt>
                <dd>
                  {m.placard_fitted
                    ? t('aircraft-reports.placardFitted', { reference: m.mel_reference })
                    : m.mel_reference}
                </dd>
              </>
            )}
          </>
        )}
        {r.description && (
          <>
            <dt>{t('aircraft-reports.description')}</dt>
            <dd>{r.description}</dd>
          </>
        )}
      </dl>
      {!raising && (
        <Photos
          model="AircraftReport"
          foreignKey={r.id}
          canAdd={!isAuditor(ws.user.user_group_id) && r.status !== 'CLOSED'}
        />
      )}
      <DecisionNote command={command} outcome={outcome} display={display} />
      {(mayManage || mayClose) && !raising && view.pending !== 'close' && r.status !== 'CLOSED' && !closing && (
        <div className="actions-row">
          {mayManage && m && m.category !== 'A' && !m.extended && m.interval_type === 'CALENDAR_DAYS' && (
            <button
              type="button"
              className="secondary small"
              onClick={() => setExtending(!extending)}
              disabled={view.pending === 'extend'}
            >
              {t('aircraft-reports.extend')}
            </button>
          )}
          {mayClose && (
            <button type="button" className="secondary small" onClick={() => setClosing(true)}>
              {m ? t('aircraft-reports.closeItem') : t('aircraft-reports.closeReport')}
            </button>
          )}
        </div>
      )}
      {closing && (
        <CloseReport
          report={r}
          effect={closeEffect(row, r.id, t)}
          online={online}
          onDone={(note) => {
            setClosing(false);
            if (note) onClosed(note);
          }}
        />
      )}
      {extending && m && <ExtendForm view={view} display={display} now={now} onDone={() => setExtending(false)} />}
    </article>
  );
}

function ExtendForm({
  view,
  display,
  now,
  onDone,
}: {
  view: ItemView;
  display: DisplaySettings;
  now: number;
  onDone(): void;
}) {
  const ws = useWorkspace();
  const t = useT();
  const current = view.item?.expires ?? now;
  const [day, setDay] = useState(() =>
    isoDateIn(current + (view.item?.interval_value ?? 1) * 86400 - 1, display.companyZone),
  );
  const [reason, setReason] = useState('');
  const until = endOfDay(day, display.companyZone);
  const state = melItemStateOf(view.report);
  const check = state
    ? checkExtension(state, { extended_until: until, now, role: ws.user.user_group_id, timeZone: display.companyZone })
    : null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (until === null || !reason.trim()) return;
    await ws.run('mel.extend', { report_id: view.report.id, extended_until: until, reason: reason.trim() });
    onDone();
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label={t('aircraft-reports.extendItem')}>
      <Field label={t('aircraft-reports.newLastDay', { zone: display.companyZone })}>
        <input type="date" name="last_day" value={day} onChange={(e) => setDay(e.target.value)} required />
      </Field>
      <Field label={t('aircraft-reports.reason')} wide>
        <input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={1000} />
      </Field>
      {check && !check.ok && (
        <p className="form-warning">{t('aircraft-reports.likelyRefused', { reason: check.reason })}</p>
      )}
      <button type="submit">{t('aircraft-reports.queueExtension')}</button>
    </form>
  );
}

function DefectForm({ aircraft, onDone }: { aircraft: AircraftDoc; onDone(): void }) {
  const ws = useWorkspace();
  const t = useT();
  const [title, setTitle] = useState('');
  const [ata, setAta] = useState('');
  const [system, setSystem] = useState('');
  const [severity, setSeverity] = useState('LOW');
  const [grounded, setGrounded] = useState(false);
  const [description, setDescription] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const now = Math.floor(Date.now() / 1000);
    const doc: AircraftReportDoc = {
      id: uuidv7(),
      aircraft_id: aircraft.id,
      flight_id: null,
      user_id: ws.user.id,
      type: 'DEFECT',
      title: title.trim(),
      description: description.trim() || null,
      ata_chapter: ata.trim() || null,
      system: system.trim() || null,
      severity,
      aircraft_status: grounded ? 'GROUNDED' : 'FLYABLE',
      dispatch_condition: grounded ? 'GROUNDED' : 'NONE',
      status: 'OPEN',
      hours: null,
      cycles: null,
      deferred_until: null,
      deferred_reference: null,
      created: now,
      modified: now,
      closed: null,
      closed_by: null,
      maintenance_job_id: null,
      MelItem: null,
    };
    await ws.save('aircraft_report', doc);
    onDone();
  };
  return (
    <form className="card-form" onSubmit={submit} aria-label={t('aircraft-reports.reportDefect')}>
      <h3>{t('aircraft-reports.reportDefectOn', { registration: aircraft.registration })}</h3>
      <div className="grid">
        <Field label={t('aircraft-reports.fieldTitle')} wide>
          <input name="title" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={180} />
        </Field>
        <Field label={t('aircraft-reports.ataChapter')}>
          <input name="ata" value={ata} onChange={(e) => setAta(e.target.value)} maxLength={10} />
        </Field>
        <Field label={t('aircraft-reports.system')}>
          <input value={system} onChange={(e) => setSystem(e.target.value)} maxLength={120} />
        </Field>
        <Field label={t('aircraft-reports.severity')}>
          <select value={severity} onChange={(e) => setSeverity(e.target.value)}>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {t('aircraft-reports.severityName', { severity: s })}
              </option>
            ))}
          </select>
        </Field>
        <label className="check">
          <input type="checkbox" checked={grounded} onChange={(e) => setGrounded(e.target.checked)} />{' '}
          {t('aircraft-reports.groundsAircraft')}
        </label>
        <Field label={t('aircraft-reports.description')} wide>
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
        </Field>
      </div>
      <div className="actions-row">
        <button type="submit">{t('aircraft-reports.saveDefect')}</button>
        <button type="button" className="secondary" onClick={onDone}>
          {t('aircraft-reports.cancel')}
        </button>
      </div>
    </form>
  );
}

function MelForm({ aircraft, onDone }: { aircraft: AircraftDoc; onDone(): void }) {
  const ws = useWorkspace();
  const t = useT();
  const users = useUsers();
  const role = ws.user.user_group_id;
  const [type, setType] = useState<'MEL' | 'CDL'>('MEL');
  const [title, setTitle] = useState('');
  const [ata, setAta] = useState('');
  const [category, setCategory] = useState('B');
  const [intervalType, setIntervalType] = useState('');
  const [intervalValue, setIntervalValue] = useState('');
  const [reference, setReference] = useState('');
  const [placard, setPlacard] = useState(true);
  const [procedures, setProcedures] = useState('');
  const [releasedBy, setReleasedBy] = useState(canBeReleaser(role, true) ? ws.user.id : '');
  const [limitations, setLimitations] = useState<string[]>([]);
  const [description, setDescription] = useState('');
  const releasers = useMemo(
    () =>
      [...users.values()]
        .filter(
          (u) =>
            u.active && (u.id === ws.user.id || (u.user_group_id !== null && canBeReleaser(u.user_group_id, false))),
        )
        .sort((a, b) => fullName(a).localeCompare(fullName(b))),
    [users, ws.user.id],
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = intervalValue.trim() ? Number(intervalValue) : null;
    await ws.run('mel.raise', {
      id: uuidv7(),
      AircraftReport: {
        aircraft_id: aircraft.id,
        type,
        title: title.trim(),
        ata_chapter: ata.trim() || null,
        description: description.trim() || null,
        severity: 'LOW',
        aircraft_status: 'FLYABLE',
      },
      MelItem: {
        category: category || null,
        ...(intervalType ? { interval_type: intervalType, interval_value: value } : {}),
        mel_reference: reference.trim() || null,
        released_by: releasedBy,
        placard_fitted: placard,
        procedures: procedures || null,
      },
      MelItemLimitation: limitations.map((code) => ({ code })),
    });
    onDone();
  };
  const toggle = (code: string) =>
    setLimitations((l) => (l.includes(code) ? l.filter((c) => c !== code) : [...l, code]));

  return (
    <form className="card-form" onSubmit={submit} aria-label={t('aircraft-reports.raiseMelAria')}>
      <h3>{t('aircraft-reports.raiseMelOn', { registration: aircraft.registration })}</h3>
      <p className="muted small">{t('aircraft-reports.queuedNote')}</p>
      <div className="grid">
        <Field label={t('aircraft-reports.fieldType')}>
          <select name="type" value={type} onChange={(e) => setType(e.target.value === 'CDL' ? 'CDL' : 'MEL')}>
            <option>MEL</option>
            <option>CDL</option>
          </select>
        </Field>
        <Field label={t('aircraft-reports.fieldTitle')} wide>
          <input name="title" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={180} />
        </Field>
        <Field label={t('aircraft-reports.ataChapter')}>
          <input name="ata" value={ata} onChange={(e) => setAta(e.target.value)} maxLength={10} />
        </Field>
        <Field label={t('aircraft-reports.category')}>
          <select name="category" value={category} onChange={(e) => setCategory(e.target.value)}>
            {type === 'CDL' && <option value="">{t('aircraft-reports.none')}</option>}
            {MEL_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('aircraft-reports.interval')}>
          <select value={intervalType} onChange={(e) => setIntervalType(e.target.value)}>
            <option value="">{t('aircraft-reports.standardInterval')}</option>
            {INTERVAL_TYPES.map((it) => (
              <option key={it} value={it}>
                {t('aircraft-reports.intervalName', { type: it })}
              </option>
            ))}
          </select>
        </Field>
        {intervalType && intervalType !== 'NEXT_FLIGHT' && (
          <Field label={t('aircraft-reports.intervalValue')}>
            <input
              type="number"
              min={1}
              step={1}
              value={intervalValue}
              onChange={(e) => setIntervalValue(e.target.value)}
              required
            />
          </Field>
        )}
        <Field label={t('aircraft-reports.melReference')}>
          <input value={reference} onChange={(e) => setReference(e.target.value)} maxLength={60} />
        </Field>
        <Field label={t('aircraft-reports.procedures')}>
          <select value={procedures} onChange={(e) => setProcedures(e.target.value)}>
            <option value="">{t('aircraft-reports.none')}</option>
            <option value="M">{t('aircraft-reports.procM')}</option>
            <option value="O">{t('aircraft-reports.procO')}</option>
            <option value="MO">{t('aircraft-reports.procMO')}</option>
          </select>
        </Field>
        <Field label={t('aircraft-reports.releasedBy')}>
          <select name="released_by" value={releasedBy} onChange={(e) => setReleasedBy(e.target.value)} required>
            <option value="">{t('aircraft-reports.choose')}</option>
            {releasers.map((u) => (
              <option key={u.id} value={u.id}>
                {fullName(u)}
              </option>
            ))}
          </select>
        </Field>
        <label className="check">
          <input type="checkbox" checked={placard} onChange={(e) => setPlacard(e.target.checked)} />{' '}
          {t('aircraft-reports.placard')}
        </label>
        <fieldset className="field-wide limitations">
          <legend>{t('aircraft-reports.limitations')}</legend>
          {LIMITATION_CODES.map((code) => (
            <label key={code} className="check">
              <input type="checkbox" checked={limitations.includes(code)} onChange={() => toggle(code)} />{' '}
              {t('aircraft-reports.limitation', { code })}
            </label>
          ))}
        </fieldset>
        <Field label={t('aircraft-reports.description')} wide>
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={2} />
        </Field>
      </div>
      <div className="actions-row">
        <button type="submit">{t('aircraft-reports.raiseItem')}</button>
        <button type="button" className="secondary" onClick={onDone}>
          {t('aircraft-reports.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The interval of an item in words: its kind, its value, and the day it counts from. */
function intervalText(m: NonNullable<ItemView['item']>, display: DisplaySettings, t: Translate): string {
  const name = m.interval_type ? t('aircraft-reports.intervalName', { type: m.interval_type }) : null;
  const interval = name
    ? m.interval_value
      ? t('aircraft-reports.intervalWithValue', { name, value: m.interval_value })
      : name
    : t('aircraft-reports.none');
  return m.starts ? t('aircraft-reports.intervalFrom', { interval, date: formatDate(m.starts, display) }) : interval;
}

const MEL_STATUS_TONE: Record<string, 'ok' | 'warn' | 'danger' | 'neutral' | 'info'> = {
  OPEN: 'info',
  EXPIRING_SOON: 'warn',
  EXPIRED: 'danger',
  CLOSED: 'neutral',
};

/**
 * An item's deadline in the reader's words (the English reads as ui.tsx's `deadlineText`): a
 * window ending at company midnight reads as "end of" its last day.
 */
function deadlineWords(deadline: MelDeadline | null, display: DisplaySettings, t: Translate): string {
  if (!deadline || deadline.kind === 'none') return t('aircraft-reports.noDeadline');
  if (deadline.kind === 'time') {
    const c = wallClock(deadline.expires, display.companyZone);
    return c.hour === 0 && c.minute === 0
      ? t('aircraft-reports.untilEndOf', { date: formatDate(deadline.expires - 1, display) })
      : t('aircraft-reports.until', { when: formatDateTime(deadline.expires, display) });
  }
  if (!deadline.known) return t('aircraft-reports.limitUnknown');
  return deadline.remaining <= 0
    ? t('aircraft-reports.usedUp', { unit: deadline.unit, count: deadline.limit })
    : t('aircraft-reports.left', { unit: deadline.unit, count: deadline.remaining });
}
