import { DATE_FORMATS, DURATION_FORMATS, TIME_FORMATS } from '@ops/shared';
import { type CompanySettingsForm, ZCompanySettingsForm } from '@ops/shared/forms/office';
import { useEffect, useState } from 'react';
import {
  Busy,
  Check,
  check,
  errorOf,
  FormField,
  Outcome,
  ScreenHead,
  useAction,
  useApi,
  useLoad,
} from '../office-kit.tsx';
import { useT } from '../../i18n.tsx';

interface Settings {
  Company: { name: string; plan: string };
  CompanyTheme: { logo: string | null; color: string | null };
  CompanyDetail: {
    currency: string;
    icao: string | null;
    timezone_id: string;
    country_id: string | null;
    zip: string | null;
  };
  CompanySetting: Record<string, unknown> & {
    flight_timezone_id: string | null;
    date_format: string;
    time_format: string;
    duration_format: string;
    max_duty_hours: number | null;
    max_flight_hours_year: number | null;
    booking_horizon_days: number | null;
  };
  CompanyBillingSetting: { enabled: boolean; billed_person: string | null; tax: number; send_notification: boolean };
  Admin?: {
    user_count: number;
    pilot_count: number;
    base_count: number;
    active_api_keys: number;
    pilot_limit: number | null;
  };
}

const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function toForm(d: Settings): CompanySettingsForm {
  const cs = d.CompanySetting;
  return {
    Company: { name: d.Company.name },
    CompanyTheme: { logo: s(d.CompanyTheme.logo), color: s(d.CompanyTheme.color) },
    CompanyDetail: {
      currency: d.CompanyDetail.currency,
      icao: s(d.CompanyDetail.icao),
      timezone_id: d.CompanyDetail.timezone_id,
      country_id: s(d.CompanyDetail.country_id),
      zip: s(d.CompanyDetail.zip),
    },
    CompanySetting: {
      flight_timezone_id: s(cs.flight_timezone_id),
      date_format: cs.date_format as CompanySettingsForm['CompanySetting']['date_format'],
      time_format: String(cs.time_format) as CompanySettingsForm['CompanySetting']['time_format'],
      duration_format: cs.duration_format as CompanySettingsForm['CompanySetting']['duration_format'],
      aoc: cs.aoc === true,
      extracrew: cs.extracrew === true,
      cabincrew: cs.cabincrew === true,
      max_duty_hours: s(cs.max_duty_hours),
      max_flight_hours_year: s(cs.max_flight_hours_year),
      booking_horizon_days: s(cs.booking_horizon_days),
    },
    CompanyBillingSetting: {
      enabled: d.CompanyBillingSetting.enabled,
      billed_person: s(d.CompanyBillingSetting.billed_person),
      tax: s(d.CompanyBillingSetting.tax),
      send_notification: d.CompanyBillingSetting.send_notification,
    },
  };
}

/** Empty inputs clear nullable fields (the server reads '' as null). */
const ZONES =
  typeof Intl.supportedValuesOf === 'function'
    ? ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')]
    : ['UTC'];

export default function CompanySettings() {
  const t = useT();
  const { post } = useApi();
  const loaded = useLoad<Settings>('/manager/companies/settings.json');
  const [form, setForm] = useState<CompanySettingsForm | null>(null);
  const act = useAction();
  useEffect(() => {
    if (loaded.data) setForm(toForm(loaded.data));
  }, [loaded.data]);

  if (!form) return loaded.error ? <Outcome error={loaded.error} /> : <Busy />;
  const set = <K extends keyof CompanySettingsForm>(section: K, patch: Partial<CompanySettingsForm[K]>) =>
    setForm({ ...form, [section]: { ...form[section], ...patch } });
  const e = (k: string) => errorOf(act.errors, k);

  const save = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const r = check(ZCompanySettingsForm, form);
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      const fresh = await post<Settings>('/manager/companies/edit.json', form);
      setForm(toForm(fresh));
      return t('company.settingsSaved');
    });
  };

  const admin = loaded.data?.Admin;
  const cs = form.CompanySetting;
  return (
    <section data-testid="company-settings">
      <ScreenHead title={t('shell.screenCompany')}>
        <span className="badge badge-info">{t('company.plan', { plan: loaded.data?.Company.plan })}</span>
        {admin && (
          <span className="muted small">
            {[
              t('company.users', { count: admin.user_count }),
              admin.pilot_limit
                ? t('company.pilotsOfLimit', { count: admin.pilot_count, limit: admin.pilot_limit })
                : t('company.pilots', { count: admin.pilot_count }),
              t('company.bases', { count: admin.base_count }),
              t('company.apiKeys', { count: admin.active_api_keys }),
            ].join(' · ')}
          </span>
        )}
      </ScreenHead>
      <form onSubmit={save} className="card-form" aria-label={t('shell.screenCompany')} noValidate>
        <fieldset>
          <legend>{t('company.profileTheme')}</legend>
          <div className="grid">
            <FormField label={t('company.companyName')} error={e('Company.name')}>
              {(p) => (
                <input {...p} value={form.Company.name} onChange={(v) => set('Company', { name: v.target.value })} />
              )}
            </FormField>
            <FormField label={t('company.themeColour')} error={e('CompanyTheme.color')} hint={t('company.themeHint')}>
              {(p) => (
                <span className="color-row">
                  <input
                    {...p}
                    value={form.CompanyTheme.color ?? ''}
                    onChange={(v) => set('CompanyTheme', { color: v.target.value })}
                    placeholder="#1f6feb"
                  />
                  <span
                    className="swatch"
                    aria-hidden="true"
                    style={{ background: form.CompanyTheme.color || 'transparent' }}
                  />
                </span>
              )}
            </FormField>
            <FormField label={t('company.logoUrl')} error={e('CompanyTheme.logo')} wide>
              {(p) => (
                <input
                  {...p}
                  value={form.CompanyTheme.logo ?? ''}
                  onChange={(v) => set('CompanyTheme', { logo: v.target.value })}
                  placeholder="https://…"
                />
              )}
            </FormField>
            <FormField label={t('company.icao')} error={e('CompanyDetail.icao')}>
              {(p) => (
                <input
                  {...p}
                  value={form.CompanyDetail.icao ?? ''}
                  onChange={(v) => set('CompanyDetail', { icao: v.target.value })}
                  maxLength={4}
                />
              )}
            </FormField>
            <FormField label={t('company.country')} error={e('CompanyDetail.country_id')}>
              {(p) => (
                <input
                  {...p}
                  value={form.CompanyDetail.country_id ?? ''}
                  onChange={(v) => set('CompanyDetail', { country_id: v.target.value })}
                  maxLength={2}
                />
              )}
            </FormField>
            <FormField label={t('company.postcode')} error={e('CompanyDetail.zip')}>
              {(p) => (
                <input
                  {...p}
                  value={form.CompanyDetail.zip ?? ''}
                  onChange={(v) => set('CompanyDetail', { zip: v.target.value })}
                />
              )}
            </FormField>
            <FormField label={t('company.currency')} error={e('CompanyDetail.currency')}>
              {(p) => (
                <input
                  {...p}
                  value={form.CompanyDetail.currency}
                  onChange={(v) => set('CompanyDetail', { currency: v.target.value })}
                  maxLength={3}
                />
              )}
            </FormField>
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('company.formatsZones')}</legend>
          <div className="grid">
            <FormField
              label={t('company.companyZone')}
              error={e('CompanyDetail.timezone_id')}
              hint={t('company.companyZoneHint')}
            >
              {(p) => (
                <select
                  {...p}
                  value={form.CompanyDetail.timezone_id}
                  onChange={(v) => set('CompanyDetail', { timezone_id: v.target.value })}
                >
                  {ZONES.map((z) => (
                    <option key={z}>{z}</option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField
              label={t('company.flightZone')}
              error={e('CompanySetting.flight_timezone_id')}
              hint={t('company.flightZoneHint')}
            >
              {(p) => (
                <select
                  {...p}
                  value={cs.flight_timezone_id ?? ''}
                  onChange={(v) => set('CompanySetting', { flight_timezone_id: v.target.value })}
                >
                  <option value="">{t('company.sameAsCompany')}</option>
                  {ZONES.map((z) => (
                    <option key={z}>{z}</option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField label={t('company.dateFormat')} error={e('CompanySetting.date_format')}>
              {(p) => (
                <select
                  {...p}
                  value={cs.date_format}
                  onChange={(v) => set('CompanySetting', { date_format: v.target.value as typeof cs.date_format })}
                >
                  {DATE_FORMATS.map((f) => (
                    <option key={f}>{f}</option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField label={t('company.clock')} error={e('CompanySetting.time_format')}>
              {(p) => (
                <select
                  {...p}
                  value={cs.time_format}
                  onChange={(v) => set('CompanySetting', { time_format: v.target.value as typeof cs.time_format })}
                >
                  {TIME_FORMATS.map((f) => (
                    <option key={f} value={f}>
                      {t('company.hourClock', { hours: f })}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField label={t('company.flightTimeAs')} error={e('CompanySetting.duration_format')}>
              {(p) => (
                <select
                  {...p}
                  value={cs.duration_format}
                  onChange={(v) =>
                    set('CompanySetting', { duration_format: v.target.value as typeof cs.duration_format })
                  }
                >
                  {DURATION_FORMATS.map((f) => (
                    <option key={f} value={f}>
                      {f === 'decimal' ? t('company.decimal') : t('company.hoursMinutes')}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('company.operations')}</legend>
          <div className="grid">
            <Check label={t('company.aoc')} checked={cs.aoc} onChange={(v) => set('CompanySetting', { aoc: v })} />
            <Check
              label={t('company.extraCrew')}
              checked={cs.extracrew}
              onChange={(v) => set('CompanySetting', { extracrew: v })}
            />
            <Check
              label={t('company.cabinCrew')}
              checked={cs.cabincrew}
              onChange={(v) => set('CompanySetting', { cabincrew: v })}
            />
            <FormField label={t('company.maxDuty')} error={e('CompanySetting.max_duty_hours')}>
              {(p) => (
                <input
                  {...p}
                  inputMode="decimal"
                  value={cs.max_duty_hours ?? ''}
                  onChange={(v) => set('CompanySetting', { max_duty_hours: v.target.value })}
                />
              )}
            </FormField>
            <FormField label={t('company.maxFlightYear')} error={e('CompanySetting.max_flight_hours_year')}>
              {(p) => (
                <input
                  {...p}
                  inputMode="decimal"
                  value={cs.max_flight_hours_year ?? ''}
                  onChange={(v) => set('CompanySetting', { max_flight_hours_year: v.target.value })}
                />
              )}
            </FormField>
            <FormField
              label={t('company.bookingHorizon')}
              hint={t('company.bookingHorizonHint')}
              error={e('CompanySetting.booking_horizon_days')}
            >
              {(p) => (
                <input
                  {...p}
                  inputMode="numeric"
                  placeholder="365"
                  value={cs.booking_horizon_days ?? ''}
                  onChange={(v) => set('CompanySetting', { booking_horizon_days: v.target.value })}
                />
              )}
            </FormField>
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('company.billing')}</legend>
          <div className="grid">
            <Check
              label={t('company.billingEnabled')}
              checked={form.CompanyBillingSetting.enabled}
              onChange={(v) => set('CompanyBillingSetting', { enabled: v })}
            />
            <Check
              label={t('company.billingNotifications')}
              checked={form.CompanyBillingSetting.send_notification}
              onChange={(v) => set('CompanyBillingSetting', { send_notification: v })}
            />
            <FormField label={t('company.tax')} error={e('CompanyBillingSetting.tax')}>
              {(p) => (
                <input
                  {...p}
                  inputMode="decimal"
                  value={form.CompanyBillingSetting.tax}
                  onChange={(v) => set('CompanyBillingSetting', { tax: v.target.value })}
                />
              )}
            </FormField>
            <FormField label={t('company.billedPerson')} error={e('CompanyBillingSetting.billed_person')}>
              {(p) => (
                <input
                  {...p}
                  value={form.CompanyBillingSetting.billed_person ?? ''}
                  onChange={(v) => set('CompanyBillingSetting', { billed_person: v.target.value })}
                />
              )}
            </FormField>
          </div>
        </fieldset>
        <div className="actions-row">
          <button type="submit" disabled={act.busy}>
            {act.busy ? t('company.saving') : t('company.saveSettings')}
          </button>
          <Outcome error={act.error} done={act.done} />
        </div>
      </form>
    </section>
  );
}
