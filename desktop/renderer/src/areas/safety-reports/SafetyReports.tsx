import type { SafetyDoc } from '@ops/shared';
import {
  assessRisk,
  FLIGHT_PHASES,
  icaoRiskMatrix,
  RISK_PROBABILITIES,
  RISK_SEVERITIES,
  EVENT_IN_FUTURE,
  eventDateProblem,
  type RiskMatrix,
  SAFETY_SEVERITIES,
  SAFETY_STATUSES,
} from '@ops/shared/rules/safety-reports/safety';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './safety.css';
import { useCompany, useDocs, useWorkspace } from '../../hooks.ts';
import type { ScreenProps } from '../../nav.ts';
import {
  SAFETY_PLANS,
  mayAssignSafetyReviewer,
  mayManageSafetyReports,
  mayReviewSafetyReport,
} from '@ops/shared/rules/safety-reports/policy';
import { Busy, Outcome, ScreenHead, useAction, useApi, useLoad } from '../office-kit.tsx';
import { fullName, useUsers } from '../../hooks.ts';
import type { MessageId, Translate } from '@ops/shared/i18n/index';
import {
  named,
  PHASE_NAMES,
  PROBABILITY_NAMES,
  RISK_SEVERITY_NAMES,
  severityName,
  statusName,
  TOLERABILITY_NAMES,
} from '@ops/shared/rules/safety-reports/names';
import { useT } from '../../i18n.tsx';

declare module '@ops/client-core' {
  interface OpsCommands {
    'safety.file': {
      args: { id: string; client_id?: string; SafetyReport: Record<string, unknown>; flight_id?: string };
      result: { id: string; idn: string | null; status: string };
    };
    'safety.submit': {
      args: { id: string; SafetyReport?: Record<string, unknown> };
      result: { id: string; idn: string | null; status: string };
    };
  }
}

interface Options {
  departments: {
    SafetyReportDepartment: { id: string; name: string };
    SafetyReportCategory: { id: string; name: string }[];
  }[];
  riskMatrix: RiskMatrix;
}

const color = (sev: string) => SAFETY_SEVERITIES.find((s) => s.key === sev)?.color ?? '#64748b';

/** `4B intolerable` in the reader's words. */
const riskText = (t: Translate, r: { index: string; tolerability: string } | null | undefined) =>
  r ? `${r.index} ${named(t, TOLERABILITY_NAMES, r.tolerability)}` : '—';

/** Part B 4.4 in the app: file (offline as a command), list with filters, statistics, risk matrix, trail. */
export default function SafetyReports({ route, go }: Pick<ScreenProps, 'route' | 'go'>) {
  const t = useT();
  const [tab, setTab] = useState<'list' | 'file' | 'stats' | 'risk'>(route.id === 'new' ? 'file' : 'list');
  const company = useCompany();
  const plan = (company.data?.Company as { plan?: unknown } | undefined)?.plan;
  // A plan without safety reports: say so instead of offering a form the server refuses.
  if (typeof plan === 'string' && !(SAFETY_PLANS as readonly string[]).includes(plan))
    return (
      <section data-testid="safety">
        <ScreenHead title={t('safety-reports.title')} />
        <p className="empty" data-testid="safety-off">
          {t('safety-reports.offPlan', { company: company.name || t('safety-reports.yourCompany'), plan })}
        </p>
      </section>
    );
  if (route.id && route.id !== 'new') return <ReportView id={route.id} back={() => go({ screen: 'safety' })} />;
  return (
    <section data-testid="safety">
      <ScreenHead title={t('safety-reports.title')}>
        {(['list', 'file', 'stats', 'risk'] as const).map((k) => (
          <button
            key={k}
            type="button"
            aria-pressed={tab === k}
            onClick={() => setTab(k)}
            data-testid={`safety-tab-${k}`}
          >
            {t(
              (
                {
                  list: 'safety-reports.tabList',
                  file: 'safety-reports.tabFile',
                  stats: 'safety-reports.tabStats',
                  risk: 'safety-reports.tabRisk',
                } as const
              )[k],
            )}
          </button>
        ))}
      </ScreenHead>
      {tab === 'list' && <ReportList open={(id) => go({ screen: 'safety', id })} />}
      {tab === 'file' && <FileReport done={() => setTab('list')} />}
      {tab === 'stats' && <Statistics />}
      {tab === 'risk' && <RiskMatrixView />}
    </section>
  );
}

/** The replicated `safety` collection (what the server lets this person see), filtered locally. */
function ReportList({ open }: { open(id: string): void }) {
  const t = useT();
  const [status, setStatus] = useState('');
  const [severity, setSeverity] = useState('');
  const selector: Record<string, unknown> = {};
  if (status) selector.status = status;
  if (severity) selector.severity = severity;
  const { docs, ready } = useDocs<SafetyDoc>('safety', { selector, sort: [{ datetime: 'desc' }] });
  const top = docs.filter((d) => !d.parent_id);
  return (
    <div>
      <div className="filters">
        <label>
          {t('safety-reports.status')}{' '}
          <select value={status} onChange={(e) => setStatus(e.target.value)} data-testid="safety-filter-status">
            <option value="">{t('safety-reports.all')}</option>
            {SAFETY_STATUSES.map((s) => (
              <option key={s.key} value={s.key}>
                {statusName(t, s.key)}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          {t('safety-reports.severity')}{' '}
          <select value={severity} onChange={(e) => setSeverity(e.target.value)}>
            <option value="">{t('safety-reports.all')}</option>
            {SAFETY_SEVERITIES.map((s) => (
              <option key={s.key} value={s.key}>
                {severityName(t, s.key)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {!ready && <Busy what={t('shell.loading')} />}
      <table className="safety-table" data-testid="safety-list">
        <thead>
          <tr>
            <th>{t('safety-reports.number')}</th>
            <th>{t('safety-reports.dateUtc')}</th>
            <th>{t('safety-reports.name')}</th>
            <th>{t('safety-reports.severity')}</th>
            <th>{t('safety-reports.status')}</th>
            <th>{t('safety-reports.location')}</th>
          </tr>
        </thead>
        <tbody>
          {top.map((d) => (
            <tr key={d.id} onClick={() => open(d.id)} style={{ cursor: 'pointer' }}>
              <td>{d.idn ?? <em>{t('safety-reports.notNumbered')}</em>}</td>
              <td>{d.datetime}</td>
              <td>{d.name}</td>
              <td>
                <span
                  className="chip"
                  style={{ background: color(d.severity), color: '#fff', padding: '1px 6px', borderRadius: 4 }}
                >
                  {severityName(t, d.severity)}
                </span>
              </td>
              <td>{statusName(t, d.status)}</td>
              <td>{d.location}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {ready && top.length === 0 && <p>{t('safety-reports.noReports')}</p>}
    </div>
  );
}

const OPTIONS_KEY = 'ops.safety.options';

/** Departments and categories: from the server when online, else the copy kept from the last visit. */
function useOptions(): Options | null {
  const live = useLoad<Options>('/safety_reports/form_options.json');
  const [kept] = useState<Options | null>(() => {
    try {
      return JSON.parse(localStorage.getItem(OPTIONS_KEY) ?? 'null') as Options | null;
    } catch {
      return null;
    }
  });
  useEffect(() => {
    if (live.data)
      localStorage.setItem(
        OPTIONS_KEY,
        JSON.stringify({ departments: live.data.departments, riskMatrix: live.data.riskMatrix }),
      );
  }, [live.data]);
  return live.data ?? kept;
}

/**
 * Filing works offline: the report is a `safety.file` command; the server
 * numbers it when it arrives. The form's id is made when it opens and sent
 * with the submission, so a second press (or a replayed queue) answers the
 * report already filed; a successful filing empties the form and takes a new id.
 */
// The form's required fields by the label a person sees.
const FIELD_NAMES: Record<string, MessageId> = {
  name: 'safety-reports.event',
  datetime: 'safety-reports.dateTimeUtc',
  location: 'safety-reports.location',
  events: 'safety-reports.whatHappened',
  flight_phase: 'safety-reports.flightPhase',
  safety_report_category_id: 'safety-reports.category',
};

/** The shared date rule's English refusal in the reader's words. */
const dateProblemText = (t: Translate, problem: string) =>
  problem === EVENT_IN_FUTURE ? t('safety-reports.eventInFuture') : problem;

function FileReport({ done }: { done(): void }) {
  const t = useT();
  const ws = useWorkspace();
  const options = useOptions();
  const [formId, setFormId] = useState(() => crypto.randomUUID());
  const [error, setError] = useState<string | null>(null);
  const [dateError, setDateError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // React lets go of the event after an await: keep the form itself.
    const form = e.currentTarget;
    if (busy) return;
    const f = new FormData(form);
    const get = (k: string) => String(f.get(k) ?? '').trim();
    const missing = ['name', 'datetime', 'location', 'events', 'flight_phase', 'safety_report_category_id'].filter(
      (k) => !get(k),
    );
    if (missing.length) {
      setError(t('safety-reports.fillIn', { fields: missing.map((k) => named(t, FIELD_NAMES, k)).join(', ') }));
      return;
    }
    const future = eventDateProblem(get('datetime'));
    setDateError(future && dateProblemText(t, future));
    if (future) {
      setError(null);
      setSent(null);
      return;
    }
    const SafetyReport: Record<string, unknown> = {
      name: get('name'),
      datetime: get('datetime'),
      location: get('location'),
      events: get('events'),
      flight_phase: get('flight_phase'),
      safety_report_category_id: get('safety_report_category_id'),
      status: f.get('draft') ? 'draft' : 'open',
    };
    for (const k of ['damages', 'personal_damages', 'risk_probability', 'risk_severity'])
      if (get(k)) SafetyReport[k] = get(k);
    if (f.get('anonymous')) SafetyReport.user_id = '';
    setBusy(true);
    try {
      await ws.run('safety.file', { id: formId, client_id: formId, SafetyReport });
    } catch (err) {
      setError(t('safety-reports.notSaved', { error: err instanceof Error ? err.message : String(err) }));
      return;
    } finally {
      setBusy(false);
    }
    setError(null);
    setSent(navigator.onLine ? t('safety-reports.sentOnline') : t('safety-reports.savedOffline'));
    form.reset();
    setFormId(crypto.randomUUID());
  };
  return (
    <form
      onSubmit={submit}
      className="form safety-form"
      data-testid="safety-form"
      aria-label={t('safety-reports.formLabel')}
      style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(15rem, 1fr))', gap: 12, maxWidth: 760 }}
    >
      <label>
        {t('safety-reports.event')} <input name="name" maxLength={255} required />
      </label>
      <label>
        {t('safety-reports.dateTimeUtc')}{' '}
        <input
          name="datetime"
          type="datetime-local"
          required
          aria-invalid={dateError ? true : undefined}
          aria-describedby={dateError ? 'safety-datetime-error' : undefined}
          onChange={() => setDateError(null)}
        />
        {dateError && (
          <small id="safety-datetime-error" className="field-error" data-testid="safety-datetime-error">
            {dateError}
          </small>
        )}
      </label>
      <label>
        {t('safety-reports.location')}{' '}
        <input name="location" maxLength={255} placeholder={t('safety-reports.locationPlaceholder')} required />
      </label>
      <label>
        {t('safety-reports.flightPhase')}{' '}
        <select name="flight_phase" required defaultValue="">
          <option value="" disabled>
            {t('safety-reports.choose')}
          </option>
          {Object.keys(FLIGHT_PHASES).map((k) => (
            <option key={k} value={k}>
              {k} {named(t, PHASE_NAMES, k)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('safety-reports.category')}{' '}
        <select name="safety_report_category_id" required defaultValue="">
          <option value="" disabled>
            {options ? t('safety-reports.choose') : t('safety-reports.categoriesOffline')}
          </option>
          {options?.departments.map((d) => (
            <optgroup key={d.SafetyReportDepartment.id} label={d.SafetyReportDepartment.name}>
              {d.SafetyReportCategory.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <label style={{ gridColumn: '1 / -1' }}>
        {t('safety-reports.whatHappened')} <textarea name="events" rows={5} maxLength={20000} required />
      </label>
      <label>
        {t('safety-reports.riskProbability')}{' '}
        <select name="risk_probability" defaultValue="">
          <option value="">—</option>
          {Object.entries(RISK_PROBABILITIES).map(([k, v]) => (
            <option key={k} value={k}>
              {v.value} {named(t, PROBABILITY_NAMES, k)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('safety-reports.riskSeverity')}{' '}
        <select name="risk_severity" defaultValue="">
          <option value="">—</option>
          {Object.entries(RISK_SEVERITIES).map(([k, v]) => (
            <option key={k} value={k}>
              {v.letter} {named(t, RISK_SEVERITY_NAMES, k)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input type="checkbox" name="anonymous" /> {t('safety-reports.anonymous')}
      </label>
      <label>
        <input type="checkbox" name="draft" /> {t('safety-reports.keepDraft')}
      </label>
      <div>
        <button type="submit" disabled={busy}>
          {t('safety-reports.fileReport')}
        </button>{' '}
        <button type="button" onClick={done}>
          {t('safety-reports.backToList')}
        </button>
      </div>
      <Outcome error={error} done={sent} />
    </form>
  );
}

/** Counts by month (uPlot bars per severity) and by category (table); online. */
function Statistics() {
  const t = useT();
  const months = useLoad<{ data: Record<string, number | string>[] }>('/safety_reports/reports_by_month/12.json');
  const cats = useLoad<{ data: { key: string; label: string; count: number }[] }>(
    '/safety_reports/reports_by_category.json',
  );
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const rows = months.data?.data;
    if (!rows || !ref.current) return;
    const xs = rows.map((_, i) => i);
    const data: uPlot.AlignedData = [xs, ...SAFETY_SEVERITIES.map((s) => rows.map((r) => Number(r[s.key] ?? 0)))];
    const plot = new uPlot(
      {
        width: 640,
        height: 240,
        scales: { x: { time: false } },
        axes: [{ values: (_u, ticks) => ticks.map((t) => String(rows[t]?.month ?? '')) }, {}],
        series: [
          {},
          ...SAFETY_SEVERITIES.map((s) => ({
            label: severityName(t, s.key),
            stroke: s.color,
            width: 2,
            points: { show: true },
          })),
        ],
      },
      data,
      ref.current,
    );
    return () => plot.destroy();
  }, [months.data, t]);
  return (
    <div data-testid="safety-stats">
      <Outcome error={months.error ?? cats.error} />
      <h3>{t('safety-reports.perMonth')}</h3>
      <div ref={ref} />
      <h3>{t('safety-reports.byCategory')}</h3>
      <table className="safety-table">
        <tbody>
          {cats.data?.data.map((c) => (
            <tr key={c.key}>
              <td>{c.label}</td>
              <td>{c.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const TOL_COLOR = { intolerable: '#ef4444', tolerable: '#facc15', acceptable: '#22c55e' } as const;

function RiskMatrixView() {
  const t = useT();
  const options = useOptions();
  const matrix = options?.riskMatrix ?? icaoRiskMatrix();
  return (
    <table className="safety-table risk-matrix" data-testid="safety-risk">
      <thead>
        <tr>
          <th>{t('safety-reports.matrixCorner')}</th>
          {Object.entries(RISK_SEVERITIES).map(([sk, s]) => (
            <th key={s.letter}>
              {s.letter} {named(t, RISK_SEVERITY_NAMES, sk)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Object.entries(RISK_PROBABILITIES).map(([pk, p]) => (
          <tr key={pk}>
            <th>
              {p.value} {named(t, PROBABILITY_NAMES, pk)}
            </th>
            {Object.keys(RISK_SEVERITIES).map((sk) => {
              const r = assessRisk(pk, sk, matrix);
              return (
                <td key={sk} style={{ background: r ? TOL_COLOR[r.tolerability] : undefined, textAlign: 'center' }}>
                  {r ? riskText(t, r) : null}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface View {
  report: {
    SafetyReport: SafetyDoc & Record<string, unknown>;
    Risk: {
      before: { index: string; tolerability: string } | null;
      after: { index: string; tolerability: string } | null;
    };
    SafetyReportChange?: {
      id: string;
      action: string;
      user: { name: string } | null;
      created: number;
      fields: {
        field: string;
        label: string;
        kind?: string;
        from: unknown;
        to: unknown;
        from_label?: string | null;
        to_label?: string | null;
      }[];
    }[];
  };
  allowEdit: boolean;
}

/** One report (online): details, risk before and after mitigation, the trail for managers. */
function ReportView({ id, back }: { id: string; back(): void }) {
  const t = useT();
  const ws = useWorkspace();
  const v = useLoad<View>(`/safety_reports/view/${id}.json`);
  const local = useDocs<SafetyDoc>('safety', { selector: { id } }).docs[0];
  const r = v.data?.report.SafetyReport ?? local;
  const me = { userId: ws.user.id, role: ws.user.user_group_id };
  const show = (x: unknown) => (Array.isArray(x) ? x.join(', ') : x === null || x === undefined ? '—' : String(x));
  const pdf = useMemo(
    () => `${ws.baseUrl}/safety_reports/view/${id}/pdf:true?token=${encodeURIComponent(ws.token)}`,
    [ws, id],
  );
  return (
    <section data-testid="safety-view">
      <ScreenHead
        title={r ? `${r.idn ?? t('safety-reports.statusDraft')} ${r.name}` : t('safety-reports.reportFallback')}
      >
        <button type="button" onClick={back}>
          {t('safety-reports.back')}
        </button>
        {v.data && (
          <a href={pdf} target="_blank" rel="noreferrer">
            PDF
          </a>
        )}
      </ScreenHead>
      <Outcome error={v.error} />
      {r && (
        <dl>
          <dt>{t('safety-reports.status')}</dt>
          <dd>{statusName(t, r.status)}</dd>
          <dt>{t('safety-reports.dateUtc')}</dt>
          <dd>{r.datetime}</dd>
          <dt>{t('safety-reports.location')}</dt>
          <dd>{r.location}</dd>
          <dt>{t('safety-reports.events')}</dt>
          <dd>{r.events}</dd>
        </dl>
      )}
      {v.data && (
        <p data-testid="safety-risk-view">
          {t('safety-reports.riskLine', {
            before: riskText(t, v.data.report.Risk.before),
            after: riskText(t, v.data.report.Risk.after),
          })}
        </p>
      )}
      {v.data && r && mayReviewSafetyReport(me, accessRow(v.data.report.SafetyReport)) && (
        <ReviewPanel id={id} report={v.data.report.SafetyReport} onSaved={v.reload} />
      )}
      {v.data && r && !mayReviewSafetyReport(me, accessRow(v.data.report.SafetyReport)) && (
        <p className="muted" data-testid="safety-review-none">
          {r.status === 'draft' ? t('safety-reports.draftReviewNote') : t('safety-reports.reviewersNote')}
        </p>
      )}
      {mayManageSafetyReports({ role: ws.user.user_group_id }) && v.data?.report.SafetyReportChange && (
        <table className="safety-trail" data-testid="safety-trail">
          <thead>
            <tr>
              <th>{t('safety-reports.when')}</th>
              <th>{t('safety-reports.action')}</th>
              <th>{t('safety-reports.by')}</th>
              <th>{t('safety-reports.changes')}</th>
            </tr>
          </thead>
          <tbody>
            {v.data.report.SafetyReportChange.map((c) => (
              <tr key={c.id}>
                <td>{new Date(c.created * 1000).toISOString().slice(0, 16).replace('T', ' ')}</td>
                <td>{t('safety-reports.trailAction', { action: c.action })}</td>
                <td>{c.user?.name ?? '—'}</td>
                <td>
                  <ul className="trail-fields">
                    {c.fields.map((f) => (
                      <li key={f.field}>
                        {/* The stored English label is the fallback for a field this catalogue does not name. */}
                        {f.kind === 'text'
                          ? t('safety-reports.textChange', {
                              label: t('safety-reports.trailField', { field: f.field, label: f.label }),
                              from: show(f.from),
                              to: show(f.to),
                            })
                          : `${t('safety-reports.trailField', { field: f.field, label: f.label })}: ${show(f.from_label ?? f.from)} → ${show(f.to_label ?? f.to)}`}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The columns the review rule reads, from the view (the author stays hidden: review never hangs on authorship). */
const accessRow = (r: SafetyDoc & Record<string, unknown>) => ({
  status: r.status,
  author_id: null,
  reviewer_id: r.reviewer_id,
  crew_pic_id: null,
  crew_sic_id: null,
  crew_supervisor_id: null,
  deleted: Boolean(r.deleted),
});

const STATUS_STEPS: Record<string, { to: string; label: MessageId; confirm?: MessageId }[]> = {
  open: [
    { to: 'reviewed', label: 'safety-reports.markReviewed' },
    { to: 'closed', label: 'safety-reports.closeReport', confirm: 'safety-reports.closeConfirm' },
  ],
  reviewed: [
    { to: 'closed', label: 'safety-reports.closeReport', confirm: 'safety-reports.closeConfirm' },
    { to: 'open', label: 'safety-reports.reopen' },
  ],
  closed: [
    { to: 'published', label: 'safety-reports.publish', confirm: 'safety-reports.publishConfirm' },
    { to: 'open', label: 'safety-reports.reopen' },
  ],
  published: [{ to: 'closed', label: 'safety-reports.unpublish' }],
};

// What a step's success says, by the status it reached.
const STEP_DONE: Record<string, MessageId> = {
  reviewed: 'safety-reports.doneReviewed',
  closed: 'safety-reports.doneClosed',
  published: 'safety-reports.donePublished',
  open: 'safety-reports.doneOpen',
};

/**
 * Review, classify and close (Part B 4.4 item 5 through the edit endpoint):
 * for managers and the assigned reviewer, the roles `mayReviewSafetyReport`
 * names. The reviewer is assigned by managers only. Online: the server decides.
 */
function ReviewPanel({
  id,
  report,
  onSaved,
}: {
  id: string;
  report: SafetyDoc & Record<string, unknown>;
  onSaved(): void;
}) {
  const t = useT();
  const { ws, post } = useApi();
  const users = useUsers();
  const act = useAction();
  const options = useOptions();
  const assign = mayAssignSafetyReviewer({ role: ws.user.user_group_id });
  const text = (k: string) => (typeof report[k] === 'string' ? (report[k] as string) : '');
  const [type, setType] = useState(report.type || 'OCCURRENCE');
  const save = (fields: Record<string, unknown>, message: string) =>
    act.run(async () => {
      await post(`/safety_reports/edit/${id}.json`, { SafetyReport: fields });
      onSaved();
      return message;
    });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const fields: Record<string, unknown> = {};
    for (const k of [
      'type',
      'severity',
      'safety_report_category_id',
      'risk_probability',
      'risk_severity',
      'mitigated_risk_probability',
      'mitigated_risk_severity',
      'reviewer_outcome',
      'corrective_measures',
      ...(assign ? ['reviewer_id'] : []),
    ])
      if (f.has(k)) fields[k] = String(f.get(k) ?? '');
    void save(fields, t('safety-reports.reviewSaved'));
  };
  const step = (to: string, confirm?: MessageId) => {
    if (confirm && !window.confirm(t(confirm))) return;
    const done = STEP_DONE[to];
    void save({ status: to }, done ? t(done) : statusName(t, to));
  };
  const riskSelect = (name: string, kind: 'p' | 's') => (
    <select id={`safety-review-${name}`} name={name} defaultValue={text(name)}>
      <option value="">—</option>
      {Object.entries(kind === 'p' ? RISK_PROBABILITIES : RISK_SEVERITIES).map(([k, v]) => (
        <option key={k} value={k}>
          {'value' in v ? v.value : v.letter} {named(t, kind === 'p' ? PROBABILITY_NAMES : RISK_SEVERITY_NAMES, k)}
        </option>
      ))}
    </select>
  );
  const people = [...users.values()].filter((u) => u.active).sort((a, b) => fullName(a).localeCompare(fullName(b)));
  return (
    <section className="safety-review" data-testid="safety-review" aria-label={t('safety-reports.reviewLabel')}>
      <h3>{t('safety-reports.review')}</h3>
      <div className="safety-steps" data-testid="safety-steps">
        <span>
          {t('safety-reports.statusNow')} <strong>{statusName(t, report.status)}</strong>
        </span>
        {(STATUS_STEPS[report.status] ?? []).map((st) => (
          <button
            key={st.to}
            type="button"
            disabled={act.busy}
            onClick={() => step(st.to, st.confirm)}
            data-testid={`safety-step-${st.to}`}
          >
            {t(st.label)}
          </button>
        ))}
      </div>
      <form
        onSubmit={submit}
        className="form safety-form safety-review-form"
        aria-label={t('safety-reports.classifyLabel')}
      >
        <label>
          {t('safety-reports.type')}{' '}
          <select name="type" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="OCCURRENCE">{t('safety-reports.typeOccurrence')}</option>
            <option value="INFORMATION">{t('safety-reports.typeInformation')}</option>
          </select>
        </label>
        {type === 'INFORMATION' ? (
          <label>
            {t('safety-reports.severity')}{' '}
            <select name="severity" defaultValue={report.severity === 'hazard' ? 'hazard' : 'information'}>
              <option value="information">{t('safety-reports.sevInformation')}</option>
              <option value="hazard">{t('safety-reports.sevHazard')}</option>
            </select>
          </label>
        ) : (
          <p className="muted">{t('safety-reports.severityFollows', { severity: severityName(t, report.severity) })}</p>
        )}
        <label>
          {t('safety-reports.category')}{' '}
          <select name="safety_report_category_id" defaultValue={report.safety_report_category_id ?? ''}>
            {options?.departments.map((d) => (
              <optgroup key={d.SafetyReportDepartment.id} label={d.SafetyReportDepartment.name}>
                {d.SafetyReportCategory.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        {assign && (
          <label>
            {t('safety-reports.reviewer')}{' '}
            <select name="reviewer_id" defaultValue={report.reviewer_id ?? ''}>
              <option value="">{t('safety-reports.nobodyAssigned')}</option>
              {people.map((u) => (
                <option key={u.id} value={u.id}>
                  {fullName(u)}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="field">
          <label htmlFor="safety-review-risk_probability">{t('safety-reports.riskProbability')}</label>{' '}
          {riskSelect('risk_probability', 'p')}
        </span>
        <span className="field">
          <label htmlFor="safety-review-risk_severity">{t('safety-reports.riskSeverity')}</label>{' '}
          {riskSelect('risk_severity', 's')}
        </span>
        <span className="field">
          <label htmlFor="safety-review-mitigated_risk_probability">{t('safety-reports.mitigatedProbability')}</label>{' '}
          {riskSelect('mitigated_risk_probability', 'p')}
        </span>
        <span className="field">
          <label htmlFor="safety-review-mitigated_risk_severity">{t('safety-reports.mitigatedSeverity')}</label>{' '}
          {riskSelect('mitigated_risk_severity', 's')}
        </span>
        <label style={{ gridColumn: '1 / -1' }}>
          {t('safety-reports.reviewerOutcome')}{' '}
          <textarea name="reviewer_outcome" rows={3} maxLength={20000} defaultValue={text('reviewer_outcome')} />
        </label>
        <label style={{ gridColumn: '1 / -1' }}>
          {t('safety-reports.correctiveMeasures')}{' '}
          <textarea name="corrective_measures" rows={3} maxLength={20000} defaultValue={text('corrective_measures')} />
        </label>
        <div>
          <button type="submit" disabled={act.busy} data-testid="safety-review-save">
            {t('safety-reports.saveReview')}
          </button>
        </div>
      </form>
      <Outcome error={act.error} done={act.done} />
    </section>
  );
}
