import type { SafetyDoc } from '@ops/shared';
import {
  assessRisk,
  FLIGHT_PHASES,
  icaoRiskMatrix,
  RISK_PROBABILITIES,
  RISK_SEVERITIES,
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
const statusLabel = (k: string) => SAFETY_STATUSES.find((s) => s.key === k)?.label ?? k;

/** Part B 4.4 in the app: file (offline as a command), list with filters, statistics, risk matrix, trail. */
export default function SafetyReports({ route, go }: Pick<ScreenProps, 'route' | 'go'>) {
  const [tab, setTab] = useState<'list' | 'file' | 'stats' | 'risk'>(route.id === 'new' ? 'file' : 'list');
  const company = useCompany();
  const plan = (company.data?.Company as { plan?: unknown } | undefined)?.plan;
  // A plan without safety reports: say so instead of offering a form the server refuses.
  if (typeof plan === 'string' && !(SAFETY_PLANS as readonly string[]).includes(plan))
    return (
      <section data-testid="safety">
        <ScreenHead title="Safety reports" />
        <p className="empty" data-testid="safety-off">
          {company.name || 'Your company'}’s plan ({plan}) does not include safety reports; the premium and unlimited
          plans do.
        </p>
      </section>
    );
  if (route.id && route.id !== 'new') return <ReportView id={route.id} back={() => go({ screen: 'safety' })} />;
  return (
    <section data-testid="safety">
      <ScreenHead title="Safety reports">
        {(['list', 'file', 'stats', 'risk'] as const).map((t) => (
          <button
            key={t}
            type="button"
            aria-pressed={tab === t}
            onClick={() => setTab(t)}
            data-testid={`safety-tab-${t}`}
          >
            {{ list: 'Reports', file: 'File a report', stats: 'Statistics', risk: 'Risk matrix' }[t]}
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
          Status{' '}
          <select value={status} onChange={(e) => setStatus(e.target.value)} data-testid="safety-filter-status">
            <option value="">All</option>
            {SAFETY_STATUSES.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Severity{' '}
          <select value={severity} onChange={(e) => setSeverity(e.target.value)}>
            <option value="">All</option>
            {SAFETY_SEVERITIES.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {!ready && <Busy />}
      <table className="safety-table" data-testid="safety-list">
        <thead>
          <tr>
            <th>Number</th>
            <th>Date (UTC)</th>
            <th>Name</th>
            <th>Severity</th>
            <th>Status</th>
            <th>Location</th>
          </tr>
        </thead>
        <tbody>
          {top.map((d) => (
            <tr key={d.id} onClick={() => open(d.id)} style={{ cursor: 'pointer' }}>
              <td>{d.idn ?? <em>not numbered yet</em>}</td>
              <td>{d.datetime}</td>
              <td>{d.name}</td>
              <td>
                <span
                  className="chip"
                  style={{ background: color(d.severity), color: '#fff', padding: '1px 6px', borderRadius: 4 }}
                >
                  {SAFETY_SEVERITIES.find((s) => s.key === d.severity)?.label ?? d.severity}
                </span>
              </td>
              <td>{statusLabel(d.status)}</td>
              <td>{d.location}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {ready && top.length === 0 && <p>No reports.</p>}
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
function FileReport({ done }: { done(): void }) {
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
      setError(`Fill in: ${missing.join(', ')}`);
      return;
    }
    const future = eventDateProblem(get('datetime'));
    setDateError(future);
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
      setError(`The report could not be saved on this device: ${err instanceof Error ? err.message : String(err)}`);
      return;
    } finally {
      setBusy(false);
    }
    setError(null);
    setSent(
      navigator.onLine
        ? 'Report sent; the number arrives with the server’s answer.'
        : 'Saved on this device; it is sent and numbered when you are back online.',
    );
    form.reset();
    setFormId(crypto.randomUUID());
  };
  return (
    <form
      onSubmit={submit}
      className="form safety-form"
      data-testid="safety-form"
      aria-label="File a safety report"
      style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(15rem, 1fr))', gap: 12, maxWidth: 760 }}
    >
      <label>
        Event <input name="name" maxLength={255} required />
      </label>
      <label>
        Date and time (UTC){' '}
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
        Location <input name="location" maxLength={255} placeholder="ICAO code or place" required />
      </label>
      <label>
        Flight phase{' '}
        <select name="flight_phase" required defaultValue="">
          <option value="" disabled>
            Choose
          </option>
          {Object.entries(FLIGHT_PHASES).map(([k, v]) => (
            <option key={k} value={k}>
              {k} {v}
            </option>
          ))}
        </select>
      </label>
      <label>
        Category{' '}
        <select name="safety_report_category_id" required defaultValue="">
          <option value="" disabled>
            {options ? 'Choose' : 'Categories load when online'}
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
        What happened <textarea name="events" rows={5} maxLength={20000} required />
      </label>
      <label>
        Risk probability{' '}
        <select name="risk_probability" defaultValue="">
          <option value="">—</option>
          {Object.entries(RISK_PROBABILITIES).map(([k, v]) => (
            <option key={k} value={k}>
              {v.value} {v.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Risk severity{' '}
        <select name="risk_severity" defaultValue="">
          <option value="">—</option>
          {Object.entries(RISK_SEVERITIES).map(([k, v]) => (
            <option key={k} value={k}>
              {v.letter} {v.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input type="checkbox" name="anonymous" /> File anonymously
      </label>
      <label>
        <input type="checkbox" name="draft" /> Keep as a draft (only you see it)
      </label>
      <div>
        <button type="submit" disabled={busy}>
          File report
        </button>{' '}
        <button type="button" onClick={done}>
          Back to the list
        </button>
      </div>
      <Outcome error={error} done={sent} />
    </form>
  );
}

/** Counts by month (uPlot bars per severity) and by category (table); online. */
function Statistics() {
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
          ...SAFETY_SEVERITIES.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: true } })),
        ],
      },
      data,
      ref.current,
    );
    return () => plot.destroy();
  }, [months.data]);
  return (
    <div data-testid="safety-stats">
      <Outcome error={months.error ?? cats.error} />
      <h3>Reports per month by severity</h3>
      <div ref={ref} />
      <h3>By category</h3>
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
  const options = useOptions();
  const matrix = options?.riskMatrix ?? icaoRiskMatrix();
  return (
    <table className="safety-table risk-matrix" data-testid="safety-risk">
      <thead>
        <tr>
          <th>Probability \ Severity</th>
          {Object.values(RISK_SEVERITIES).map((s) => (
            <th key={s.letter}>
              {s.letter} {s.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Object.entries(RISK_PROBABILITIES).map(([pk, p]) => (
          <tr key={pk}>
            <th>
              {p.value} {p.label}
            </th>
            {Object.keys(RISK_SEVERITIES).map((sk) => {
              const r = assessRisk(pk, sk, matrix);
              return (
                <td key={sk} style={{ background: r ? TOL_COLOR[r.tolerability] : undefined, textAlign: 'center' }}>
                  {r?.index} {r?.tolerability}
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
      <ScreenHead title={r ? `${r.idn ?? 'Draft'} ${r.name}` : 'Safety report'}>
        <button type="button" onClick={back}>
          Back
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
          <dt>Status</dt>
          <dd>{statusLabel(r.status)}</dd>
          <dt>Date (UTC)</dt>
          <dd>{r.datetime}</dd>
          <dt>Location</dt>
          <dd>{r.location}</dd>
          <dt>Events</dt>
          <dd>{r.events}</dd>
        </dl>
      )}
      {v.data && (
        <p data-testid="safety-risk-view">
          Risk before mitigation:{' '}
          {v.data.report.Risk.before
            ? `${v.data.report.Risk.before.index} ${v.data.report.Risk.before.tolerability}`
            : '—'}
          ; after:{' '}
          {v.data.report.Risk.after
            ? `${v.data.report.Risk.after.index} ${v.data.report.Risk.after.tolerability}`
            : '—'}
        </p>
      )}
      {v.data && r && mayReviewSafetyReport(me, accessRow(v.data.report.SafetyReport)) && (
        <ReviewPanel id={id} report={v.data.report.SafetyReport} onSaved={v.reload} />
      )}
      {v.data && r && !mayReviewSafetyReport(me, accessRow(v.data.report.SafetyReport)) && (
        <p className="muted" data-testid="safety-review-none">
          {r.status === 'draft'
            ? 'A draft is reviewed once its author files it.'
            : 'The safety manager and the assigned reviewer review, classify and close this report.'}
        </p>
      )}
      {mayManageSafetyReports({ role: ws.user.user_group_id }) && v.data?.report.SafetyReportChange && (
        <table className="safety-trail" data-testid="safety-trail">
          <thead>
            <tr>
              <th>When</th>
              <th>Action</th>
              <th>By</th>
              <th>Changes</th>
            </tr>
          </thead>
          <tbody>
            {v.data.report.SafetyReportChange.map((c) => (
              <tr key={c.id}>
                <td>{new Date(c.created * 1000).toISOString().slice(0, 16).replace('T', ' ')}</td>
                <td>{c.action}</td>
                <td>{c.user?.name ?? '—'}</td>
                <td>
                  <ul className="trail-fields">
                    {c.fields.map((f) => (
                      <li key={f.field}>
                        {f.kind === 'text'
                          ? `${f.label}: ${show(f.from)} → ${show(f.to)} characters`
                          : `${f.label}: ${show(f.from_label ?? f.from)} → ${show(f.to_label ?? f.to)}`}
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

const STATUS_STEPS: Record<string, { to: string; label: string; confirm?: string }[]> = {
  open: [
    { to: 'reviewed', label: 'Mark reviewed' },
    {
      to: 'closed',
      label: 'Close report',
      confirm: 'Close this report? It leaves the open list; the reporter and managers are told.',
    },
  ],
  reviewed: [
    {
      to: 'closed',
      label: 'Close report',
      confirm: 'Close this report? It leaves the open list; the reporter and managers are told.',
    },
    { to: 'open', label: 'Reopen' },
  ],
  closed: [
    {
      to: 'published',
      label: 'Publish',
      confirm:
        'Publish this report? Every member of the company can then read it (an anonymous reporter stays hidden).',
    },
    { to: 'open', label: 'Reopen' },
  ],
  published: [{ to: 'closed', label: 'Unpublish' }],
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
    void save(fields, 'Review saved.');
  };
  const step = (to: string, confirm?: string) => {
    if (confirm && !window.confirm(confirm)) return;
    void save({ status: to }, `Report ${statusLabel(to).toLowerCase()}.`);
  };
  const riskSelect = (name: string, kind: 'p' | 's') => (
    <select id={`safety-review-${name}`} name={name} defaultValue={text(name)}>
      <option value="">—</option>
      {Object.entries(kind === 'p' ? RISK_PROBABILITIES : RISK_SEVERITIES).map(([k, v]) => (
        <option key={k} value={k}>
          {'value' in v ? v.value : v.letter} {v.label}
        </option>
      ))}
    </select>
  );
  const people = [...users.values()].filter((u) => u.active).sort((a, b) => fullName(a).localeCompare(fullName(b)));
  return (
    <section className="safety-review" data-testid="safety-review" aria-label="Review, classify and close">
      <h3>Review</h3>
      <div className="safety-steps" data-testid="safety-steps">
        <span>
          Status: <strong>{statusLabel(report.status)}</strong>
        </span>
        {(STATUS_STEPS[report.status] ?? []).map((st) => (
          <button
            key={st.to}
            type="button"
            disabled={act.busy}
            onClick={() => step(st.to, st.confirm)}
            data-testid={`safety-step-${st.to}`}
          >
            {st.label}
          </button>
        ))}
      </div>
      <form onSubmit={submit} className="form safety-form safety-review-form" aria-label="Classify the report">
        <label>
          Type{' '}
          <select name="type" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="OCCURRENCE">Occurrence</option>
            <option value="INFORMATION">Safety information</option>
          </select>
        </label>
        {type === 'INFORMATION' ? (
          <label>
            Severity{' '}
            <select name="severity" defaultValue={report.severity === 'hazard' ? 'hazard' : 'information'}>
              <option value="information">Information</option>
              <option value="hazard">Hazard</option>
            </select>
          </label>
        ) : (
          <p className="muted">
            Severity follows the damages:{' '}
            {SAFETY_SEVERITIES.find((x) => x.key === report.severity)?.label ?? report.severity}.
          </p>
        )}
        <label>
          Category{' '}
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
            Reviewer{' '}
            <select name="reviewer_id" defaultValue={report.reviewer_id ?? ''}>
              <option value="">Nobody assigned</option>
              {people.map((u) => (
                <option key={u.id} value={u.id}>
                  {fullName(u)}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="field">
          <label htmlFor="safety-review-risk_probability">Risk probability</label> {riskSelect('risk_probability', 'p')}
        </span>
        <span className="field">
          <label htmlFor="safety-review-risk_severity">Risk severity</label> {riskSelect('risk_severity', 's')}
        </span>
        <span className="field">
          <label htmlFor="safety-review-mitigated_risk_probability">Mitigated probability</label>{' '}
          {riskSelect('mitigated_risk_probability', 'p')}
        </span>
        <span className="field">
          <label htmlFor="safety-review-mitigated_risk_severity">Mitigated severity</label>{' '}
          {riskSelect('mitigated_risk_severity', 's')}
        </span>
        <label style={{ gridColumn: '1 / -1' }}>
          Reviewer outcome{' '}
          <textarea name="reviewer_outcome" rows={3} maxLength={20000} defaultValue={text('reviewer_outcome')} />
        </label>
        <label style={{ gridColumn: '1 / -1' }}>
          Corrective measures{' '}
          <textarea name="corrective_measures" rows={3} maxLength={20000} defaultValue={text('corrective_measures')} />
        </label>
        <div>
          <button type="submit" disabled={act.busy} data-testid="safety-review-save">
            Save review
          </button>
        </div>
      </form>
      <Outcome error={act.error} done={act.done} />
    </section>
  );
}
