import { certificateState, type MonthBucket } from '@ops/shared/rules/reports/index';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type CompanyFormats, formatDate } from '@ops/shared/i18n/index';
import { useCompany, useWorkspace } from '../../hooks.ts';
import { useLocale, useT } from '../../i18n.tsx';
import { Outcome, ScreenHead, useLoad } from '../office-kit.tsx';
import { CurrencyCard, type CurrencyAnswer } from './Currency.tsx';
import { typeName, useLocalReports } from './local-reports.ts';
interface Certificate {
  id: string;
  name: string | null;
  type: string;
  expiration: string | null;
}

const hhmm = (seconds: number) =>
  `${Math.floor(seconds / 3600)}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;

/** The pilot's logbook: totals, currency, certificates, hours by month (chart and table) and routes (Part A 4.11). */
export default function Logbook() {
  const t = useT();
  const { locale } = useLocale();
  const { display } = useCompany();
  const ws = useWorkspace();
  // Figures from the replicated flights (shared rules, the server's numbers), so the logbook works offline.
  const local = useLocalReports({ userId: ws.user.id, aircraftId: null }, 11);
  const currency = useLoad<CurrencyAnswer>('/pilots/get_currency.json');
  const certs = useLoad<{ certificates: Certificate[] }>('/pilots/certificates.json');
  const today = new Date().toISOString().slice(0, 10);
  const hours = local.ready ? local.hours : null;
  const flights = local.ready ? local.totals : null;
  const rules = local.ready ? local.rules : null;
  const types = local.ready ? local.types : null;
  const months = local.ready ? local.months : null;
  const routes = local.ready ? local.routes : null;
  const dates: CompanyFormats = {
    dateFormat: display.dateFormat,
    timeFormat: display.timeFormat,
    durationFormat: display.durationFormat,
    zone: 'UTC',
  };
  // An expiry is a calendar date: noon UTC keeps it on its day.
  const day = (iso: string) => formatDate(Date.parse(`${iso.slice(0, 10)}T12:00:00Z`) / 1000, locale, dates);
  return (
    <section data-testid="logbook">
      <ScreenHead title={t('reports.logbookTitle')} />
      <p className="hint" data-testid="logbook-source">
        {t('reports.source', { pending: local.pending })}
      </p>
      <div className="logbook-grid">
        <article aria-labelledby="lb-totals">
          <h3 id="lb-totals">{t('reports.totals')}</h3>
          <dl data-testid="logbook-totals">
            <dt>{t('reports.blockTime')}</dt>
            <dd>{hours ? hhmm(hours.seconds) : '…'}</dd>
            <dt>{t('reports.flights')}</dt>
            <dd>{flights?.flights ?? '…'}</dd>
            {(rules?.rules ?? []).map((r) => (
              <div key={r.rule}>
                <dt>{r.rule === 'NONE' ? t('reports.noRule') : r.rule}</dt>
                <dd>
                  {hhmm(r.seconds)} ({r.flights})
                </dd>
              </div>
            ))}
          </dl>
          <ul className="logbook-types" aria-label={t('reports.byType')}>
            {(types?.types ?? []).map((ty) => (
              <li key={ty.id ?? 'none'}>
                <span className="swatch" style={{ background: ty.color }} aria-hidden="true" />{' '}
                {typeName(ty.name, ty.id, t)}: {hhmm(ty.total)}
              </li>
            ))}
          </ul>
        </article>
        <article aria-labelledby="lb-currency" data-testid="logbook-currency">
          <h3 id="lb-currency">{t('reports.currency')}</h3>
          {currency.data ? (
            <CurrencyCard answer={currency.data} userId={ws.user.id} />
          ) : (
            <Outcome error={currency.error} />
          )}
        </article>
        <article aria-labelledby="lb-certs" data-testid="logbook-certificates">
          <h3 id="lb-certs">{t('reports.certificates')}</h3>
          <ul>
            {(certs.data?.certificates ?? []).map((c) => {
              const state = certificateState(c.expiration, today);
              return (
                <li key={c.id} className={`cert-${state}`}>
                  {c.name ?? c.type}:{' '}
                  {c.expiration ? t('reports.expires', { date: day(c.expiration) }) : t('reports.noExpiry')}
                  {state === 'expired' && <strong> {t('reports.expired')}</strong>}
                  {state === 'expiring' && <strong> {t('reports.expiresSoon')}</strong>}
                </li>
              );
            })}
            {certs.data && certs.data.certificates.length === 0 && <li>{t('reports.noCertificates')}</li>}
          </ul>
        </article>
      </div>
      <article aria-labelledby="lb-months">
        <h3 id="lb-months">{t('reports.hoursByMonth')}</h3>
        {months && <MonthChart buckets={months} label={t('reports.hours')} />}
        <table data-testid="logbook-months" className="sr-table">
          <caption>{t('reports.monthsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('reports.month')}</th>
              <th scope="col">{t('reports.blockTime')}</th>
              <th scope="col">{t('reports.flights')}</th>
              <th scope="col">{t('reports.landings')}</th>
            </tr>
          </thead>
          <tbody>
            {(months ?? []).map((b) => (
              <tr key={b.label}>
                <th scope="row">{b.label}</th>
                <td>{hhmm(b.seconds)}</td>
                <td>{b.flights}</td>
                <td>{b.landings}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </article>
      <article aria-labelledby="lb-routes">
        <h3 id="lb-routes">{t('reports.routesFlown')}</h3>
        <ol data-testid="logbook-routes">
          {(routes?.routes ?? []).map((r) => (
            <li key={`${r.from}-${r.to}`}>{t('reports.routeFlights', { from: r.from, to: r.to, count: r.flights })}</li>
          ))}
          {routes && routes.routes.length === 0 && <li>{t('reports.noRoutes')}</li>}
        </ol>
      </article>
    </section>
  );
}

/** Hours per month as bars (uPlot); the table above is the screen-reader equivalent. */
function MonthChart({ buckets, label }: { buckets: MonthBucket[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ordered = [...buckets].reverse();
    const data: uPlot.AlignedData = [
      ordered.map((b) => b.timestamp),
      ordered.map((b) => Math.round((b.seconds / 3600) * 10) / 10),
    ];
    const plot = new uPlot(
      {
        width: Math.max(320, el.clientWidth || 640),
        height: 220,
        legend: { show: false },
        series: [
          {},
          {
            label,
            stroke: '#1f6feb',
            fill: 'rgba(31,111,235,0.35)',
            paths: uPlot.paths.bars?.({ size: [0.6, 60] }),
            points: { show: false },
          },
        ],
        // Month labels need room: uPlot drops ticks closer than `space` pixels, so labels never overlap.
        axes: [
          { space: 60, values: (_u, ticks) => ticks.map((t) => new Date(t * 1000).toISOString().slice(0, 7)) },
          { label },
        ],
      },
      data,
      el,
    );
    return () => plot.destroy();
  }, [buckets, label]);
  return <div ref={box} className="logbook-chart" data-testid="logbook-chart" aria-hidden="true" />;
}
