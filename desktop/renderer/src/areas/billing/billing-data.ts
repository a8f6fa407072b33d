/**
 * Where the billing screens get their data: the company's billing settings
 * from the replicated `company` reference document (so a device knows the
 * currency and whether a provider is set while offline), the signed-in
 * person's account as replicated to this device, and REST for everything else.
 */
import { formatNumber, type Translate } from '@ops/shared/i18n/index';
import { useMemo } from 'react';
import { useCompany, useDocs, useWorkspace } from '../../hooks.ts';
import { appLocale, useLocale, useT } from '../../i18n.tsx';
import { type Loaded, useLoad } from '../office-kit.tsx';
import { RestError, type Workspace } from '../../workspace.ts';
import { accountOfDoc, formatHours, formatMoney, kindLabel, refusalSentence } from './money.ts';

/** The billing screens' words and numbers in the app's language: messages, money, hours, kinds, sample amounts. */
export function useBillingText() {
  const t = useT();
  const { locale } = useLocale();
  return useMemo(
    () => ({
      t,
      locale,
      money: (amount: number, currency: string) => formatMoney(amount, currency, locale),
      hours: (hours: number | null | undefined) => formatHours(hours, t, locale),
      kind: (kind: string) => kindLabel(kind, t),
      /** An amount to type, with the language's decimal mark and no grouping ("100,00"): parseAmount reads it. */
      sample: (n: number, decimals = 2) => n.toFixed(decimals).replace('.', formatNumber(1.5, locale, 1, 1).charAt(1)),
    }),
    [t, locale],
  );
}

export interface BillingCompany {
  /** ISO 4217 code of the company (CompanyDetail.currency). */
  currency: string;
  /** Billing applies: a paid plan and CompanyBillingSetting.enabled (CONTRACT 6). */
  enabled: boolean;
  /** False until the company document has reached this device. */
  known: boolean;
  /** A payment provider is set (its public key), so online top-up is offered. */
  provider: boolean;
  plan: string;
}

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The billing settings of the company as this device knows them. */
export function billingCompanyOf(data: Record<string, unknown> | null): BillingCompany {
  const company = obj(data?.Company);
  const detail = obj(data?.CompanyDetail);
  const setting = obj(data?.CompanyBillingSetting);
  const plan = typeof company.plan === 'string' ? company.plan : '';
  const key = setting.public_key ?? setting.provider_public_key;
  return {
    currency: typeof detail.currency === 'string' && detail.currency ? detail.currency : 'EUR',
    enabled: plan !== 'free' && setting.enabled === true,
    known: data !== null,
    provider: typeof key === 'string' && key.length > 0,
    plan,
  };
}

export function useBillingCompany(): BillingCompany {
  const { data } = useCompany();
  return useMemo(() => billingCompanyOf(data), [data]);
}

/**
 * Where the server replicates the signed-in person's account (read-only, own
 * rows only): a record type of the people collection.
 */
export const LOCAL_ACCOUNT = { collection: 'people', type: 'account' } as const;

/** The signed-in person's account as stored on this device, or null before the first sync (or without billing). */
export function useLocalAccount(currency: string) {
  const ws = useWorkspace();
  const { docs, ready } = useDocs<Record<string, unknown>>(LOCAL_ACCOUNT.collection, {
    selector: { type: LOCAL_ACCOUNT.type },
  });
  return useMemo(() => {
    for (const d of docs) {
      const a = accountOfDoc(d, currency);
      if (a && a.account.user_id === ws.user.id) return { ready, local: a };
    }
    return { ready, local: null };
  }, [docs, ready, currency, ws.user.id]);
}

/** A failed call as a sentence (the server's message when it is one). */
export function sentenceOf(err: unknown, t?: Translate): string {
  if (err instanceof RestError) return refusalSentence(err.status, err.message, t);
  return refusalSentence(-1, err instanceof Error ? err.message : String(err), t);
}

/**
 * Downloads a file the API answers to a bearer-token request (a statement PDF,
 * an export) under `filename`. Throws a sentence when the server refuses.
 */
export async function downloadFile(ws: Workspace, path: string, filename: string, t?: Translate): Promise<void> {
  let res: Response;
  try {
    // The server's refusal sentences (and the statement) come in the app's language.
    res = await fetch(`${ws.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${ws.token}`, 'accept-language': appLocale() },
    });
  } catch {
    throw new RestError(refusalSentence(0, '', t), 0, null);
  }
  if (!res.ok) {
    let message = '';
    try {
      const body: unknown = await res.json();
      const m = obj(body).message;
      if (typeof m === 'string') message = m;
    } catch {
      // Not JSON: the status says enough.
    }
    throw new RestError(refusalSentence(res.status, message, t), res.status, null);
  }
  const blob = await res.blob();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** GETs `path` (nothing while null), checks the answer with `parse`; failures are refusal sentences. */
export const useBillingLoad = <T>(path: string | null, parse: (raw: unknown) => T): Loaded<T> =>
  useLoad(path, { parse, describe: sentenceOf });
