/**
 * What the office screens (company, people, news, account) share: online REST
 * calls through the workspace's authenticated fetch, field errors from the
 * shared zod schemas and from the server side by side, pagination and progress.
 * These screens are online only: they read and write through the API, never
 * the local database.
 */
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ZodType } from 'zod';
import {
  type CompanyFormats,
  formatDate,
  formatDateTime,
  formatMoney,
  type Translate,
  translator,
} from '@ops/shared/i18n/index';
import { formMessage } from '@ops/shared/forms/messages';
import { appLocale, useLocale, useT } from '../i18n.tsx';
import { useCompany, useWorkspace } from '../hooks.ts';
import { RestError } from '../workspace.ts';
import './office.css';

/** Field errors by dotted path (`User.email`), each a list of messages: the server's `errors`/`validation` shape. */
export type FieldErrors = Record<string, string[]>;

function add(out: FieldErrors, key: string, message: string): void {
  const list = out[key] ?? [];
  list.push(message);
  out[key] = list;
}

function flatten(value: unknown, prefix: string, out: FieldErrors): void {
  if (typeof value === 'string') {
    add(out, prefix || '_', value);
  } else if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) {
      for (const v of value) add(out, prefix || '_', v);
    } else {
      for (const [i, v] of value.entries()) flatten(v, prefix ? `${prefix}.${i}` : String(i), out);
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  }
}

/** The field errors of a failed call (`errors` or `validation`, flat or nested), or none. */
export function serverFieldErrors(err: unknown): FieldErrors {
  if (!(err instanceof RestError) || typeof err.body !== 'object' || err.body === null) return {};
  const body = err.body as Record<string, unknown>;
  const out: FieldErrors = {};
  flatten(body.errors ?? body.validation ?? null, '', out);
  return out;
}

/** The `rows` messages of a rejected operating-hours save. */
export function serverRows(err: unknown): string[] {
  if (!(err instanceof RestError) || typeof err.body !== 'object' || err.body === null) return [];
  const rows = (err.body as { rows?: unknown }).rows;
  return Array.isArray(rows) ? rows.filter((r): r is string => typeof r === 'string') : [];
}

/** Validates `value` with a shared schema: the parsed value, or field errors keyed like the server's. */
export function check<T>(
  schema: ZodType<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; errors: FieldErrors } {
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  const t = translator(appLocale());
  const errors: FieldErrors = {};
  // The shared schemas speak English; beside the field the message is in the app's language (issue 33).
  for (const issue of r.error.issues)
    add(errors, issue.path.length ? issue.path.map(String).join('.') : '_', formMessage(issue.message, t));
  return { ok: false, errors };
}

/** The first message for a field: exact key, or a key ending in `.field` (servers and forms nest differently). */
export function errorOf(errors: FieldErrors, key: string): string | undefined {
  if (errors[key]?.length) return errors[key][0];
  const leaf = key.split('.').pop() ?? key;
  for (const [k, v] of Object.entries(errors)) if ((k === leaf || k.endsWith(`.${leaf}`)) && v.length) return v[0];
  return undefined;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** GET/POST against the API of the signed-in login. */
export function useApi() {
  const ws = useWorkspace();
  return {
    ws,
    get: useCallback(<T,>(path: string) => ws.rest<T>('GET', path), [ws]),
    post: useCallback(<T,>(path: string, body: unknown = {}) => ws.rest<T>('POST', path, body), [ws]),
  };
}

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload(): void;
}

export interface LoadOptions<T> {
  /** Checks the answer (a zod schema's parse); an answer it rejects is `shell.unexpectedAnswer`. */
  parse?(raw: unknown): T;
  /** A failed request in words (default: the server's message, which is already in the app's language). */
  describe?(err: unknown, t: Translate): string;
}

/**
 * Loads `path` (nothing while null) and again on `reload()`; a newer load wins over an older one. Failures
 * are sentences in the app's language, which may change without loading again.
 */
export function useLoad<T>(path: string | null, options: LoadOptions<T> = {}): Loaded<T> {
  const { get } = useApi();
  const t = useT();
  const latest = useRef({ t, options });
  latest.current = { t, options };
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean; path: string | null }>({
    data: null,
    error: null,
    loading: path !== null,
    path,
  });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick re-runs the load on purpose
  useEffect(() => {
    if (path === null) {
      setState({ data: null, error: null, loading: false, path });
      return;
    }
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true, error: null, path }));
    get<unknown>(path).then(
      (raw) => {
        if (mine !== seq.current) return;
        const { t, options } = latest.current;
        try {
          setState({ data: options.parse ? options.parse(raw) : (raw as T), error: null, loading: false, path });
        } catch {
          setState({ data: null, error: t('shell.unexpectedAnswer'), loading: false, path });
        }
      },
      (err) => {
        if (mine !== seq.current) return;
        const { t, options } = latest.current;
        const error = options.describe ? options.describe(err, t) : messageOf(err);
        setState((s) => ({ data: s.data, error, loading: false, path }));
      },
    );
  }, [path, tick, get]);
  // A new path is loading from the render that names it, not from the effect after it:
  // otherwise that one render shows the screen's "nothing here" state between two loading states.
  const loading = state.loading || (path !== null && state.path !== path);
  return { data: state.data, error: state.error, loading, reload: useCallback(() => setTick((t) => t + 1), []) };
}

/** A form submit with progress and outcome: `run` gets the work, answers whether it succeeded. */
export function useAction() {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [done, setDone] = useState<string | null>(null);
  /** The `rows` messages of a rejected operating-hours save. */
  const [rows, setRows] = useState<string[]>([]);
  const run = useCallback(async (work: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    setErrors({});
    setRows([]);
    setDone(null);
    try {
      const msg = await work();
      if (typeof msg === 'string' && msg) setDone(msg);
      return true;
    } catch (err) {
      setErrors(serverFieldErrors(err));
      setRows(serverRows(err));
      setError(messageOf(err));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  /** Client-side validation failed: show the field errors without calling the server. */
  const invalid = useCallback(
    (e: FieldErrors) => {
      setErrors(e);
      setDone(null);
      setError(t('shell.kitCheckFields'));
    },
    [t],
  );
  return { busy, error, errors, rows, done, run, invalid, setDone };
}

/** Outcome line of a form: the error (announced) or the confirmation. */
export function Outcome({ error, done }: { error: string | null; done?: string | null }) {
  if (error)
    return (
      <p role="alert" className="form-error">
        {error}
      </p>
    );
  if (done)
    return (
      <p role="status" className="form-done">
        {done}
      </p>
    );
  return null;
}

/** A labelled control with its error beside it (`aria-invalid`, `aria-describedby`). */
export function FormField({
  label,
  error,
  hint,
  wide,
  children,
}: {
  label: string;
  error?: string;
  hint?: string;
  wide?: boolean;
  children: (props: { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const described = [error ? `${id}-err` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={wide ? 'field field-wide' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(error ? { 'aria-invalid': true } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-err`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

export interface Paginate {
  page: number;
  pageCount: number;
  count: number;
  prevPage: boolean;
  nextPage: boolean;
}

/** Previous / next over a server-paginated list (`paginate` or `pagination`). */
export function Pager({
  paginate,
  onPage,
  label,
}: {
  paginate: Paginate | null | undefined;
  onPage(page: number): void;
  label?: string;
}) {
  const t = useT();
  if (!paginate || paginate.pageCount <= 1)
    return paginate ? <p className="muted small">{t('shell.kitInAll', { count: paginate.count })}</p> : null;
  return (
    <nav className="pager" aria-label={label ?? t('shell.kitPages')}>
      <button
        type="button"
        className="secondary small"
        disabled={!paginate.prevPage}
        onClick={() => onPage(paginate.page - 1)}
      >
        {t('shell.kitPrevious')}
      </button>
      <span>{t('shell.kitPageOf', { page: paginate.page, pages: paginate.pageCount, count: paginate.count })}</span>
      <button
        type="button"
        className="secondary small"
        disabled={!paginate.nextPage}
        onClick={() => onPage(paginate.page + 1)}
      >
        {t('shell.kitNext')}
      </button>
    </nav>
  );
}

/** Client-side pages of an already loaded list (lists the API answers whole). */
export function usePages<T>(items: readonly T[], size = 25) {
  const [page, setPage] = useState(1);
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(page, pageCount);
  return {
    rows: items.slice((current - 1) * size, current * size),
    paginate: { page: current, pageCount, count: items.length, prevPage: current > 1, nextPage: current < pageCount },
    setPage,
  };
}

/** Progress of a load or a long operation. */
export function Busy({ what }: { what?: string }) {
  const t = useT();
  return (
    <p className="busy" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {what ?? t('shell.loading')}
    </p>
  );
}

/** Header of an office screen. */
export function ScreenHead({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="screen-head">
      <h1>{title}</h1>
      {children}
    </div>
  );
}

/** Dates and times of unix seconds in the company's formats and zone (company settings). */
export function useFormats() {
  const { display } = useCompany();
  const { locale } = useLocale();
  return useMemo(() => {
    // The company's formats (Part A 2.2) with the language's separators and words (issue 33).
    const f: CompanyFormats = {
      dateFormat: display.dateFormat,
      timeFormat: display.timeFormat,
      durationFormat: display.durationFormat,
      zone: display.companyZone,
    };
    return {
      dateTime: (unix: number | null | undefined) => (unix ? formatDateTime(unix, locale, f) : '—'),
      date: (unix: number | null | undefined) => (unix ? formatDate(unix, locale, f) : '—'),
      money: (amount: number, currency: string) => formatMoney(amount, currency, locale),
    };
  }, [display, locale]);
}

/** Opens another screen (the shell follows the hash). */
export function goTo(screen: string, id?: string): void {
  location.hash = `#${screen}${id ? `/${encodeURIComponent(id)}` : ''}`;
}

/** Yes / no checkbox with its label. */
export function Check({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange(v: boolean): void;
  disabled?: boolean;
}) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** The company's calendar date today (YYYY-MM-DD) in `zone`. */
export function todayIn(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}
