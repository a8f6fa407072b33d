import { billingGates } from '@ops/shared/rules/billing/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId } from '../../http/zod.ts';
import {
  ZBillingAccount,
  ZBillingAccounts,
  ZBillingEntryAdd,
  ZBillingEntryReverse,
  ZBillingRateDelete,
  ZBillingRateEdit,
  ZBillingRates,
} from './billing.responses.ts';
import { ZAccountQuery, ZEntryAdd, ZExportQuery, ZRateEdit, ZReverse } from './billing.schema.ts';
import { sendEntriesExport, sendStatement } from './billing.export.ts';
import {
  addEntry,
  deleteRate,
  listAccounts,
  listRates,
  requireAccountUser,
  requireBilling,
  reverseEntry,
  saveRate,
  viewAccount,
} from './billing.service.ts';

/** CONTRACT 6. Every handler checks the record's company first (404), then billing on (403), then own-or-office. */
export const billingRoutes = [
  defineRoute({
    method: 'GET',
    path: '/billing/rates.json',
    area: 'billing',
    summary: 'Aircraft and instructor rates per hour, the currency and the billed time basis (roles <= 170)',
    access: { who: billingGates.office },
    response: ZBillingRates,
    handler: ({ ctx, actor }) => listRates(ctx, actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/billing/rates/edit.json',
    area: 'billing',
    summary:
      'Create or change a rate: Rate{id?, kind aircraft|instructor, target_id, amount per hour >= 0}; a create for a kind and target with a rate changes it (roles <= 105)',
    access: { who: billingGates.manage },
    body: ZRateEdit,
    response: ZBillingRateEdit,
    handler: ({ ctx, actor, body }) => saveRate(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/billing/rates/delete/:id.json',
    area: 'billing',
    summary: 'Delete a rate (roles <= 105)',
    access: { who: billingGates.manage },
    noBody: true,
    params: z.object({ id: zId }),
    response: ZBillingRateDelete,
    handler: ({ ctx, actor, params }) => deleteRate(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/billing/account.json',
    area: 'billing',
    summary:
      'The caller’s account: balance, prepaid hours, entries newest first (`page`, `limit`, `from`, `to` unix filter the list, never the balance)',
    access: { who: billingGates.own },
    query: ZAccountQuery,
    response: ZBillingAccount,
    handler: ({ ctx, actor, query }) => viewAccount(ctx, actor, actor.userId, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/billing/accounts.json',
    area: 'billing',
    summary:
      'Every person of the company with their balance and prepaid hours, most negative balance first (`page`, `limit` up to 500); an extension of CONTRACT 6 (roles <= 170)',
    access: { who: billingGates.office },
    query: ZAccountQuery.pick({ page: true, limit: true }),
    response: ZBillingAccounts,
    handler: ({ ctx, actor, query }) => listAccounts(ctx, actor, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/billing/account/:userId.json',
    area: 'billing',
    summary: 'A user’s account (own, or roles <= 170), as /billing/account.json',
    access: { who: billingGates.own },
    params: z.object({ userId: zId }),
    query: ZAccountQuery,
    response: ZBillingAccount,
    handler: ({ ctx, actor, params, query }) => viewAccount(ctx, actor, params.userId, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/billing/entries/add.json',
    area: 'billing',
    summary:
      'Book a payment, an adjustment or a package: Entry{user_id, kind, amount, hours? (package), aircraft_id? (package), description?} (roles <= 170)',
    access: { who: billingGates.office },
    body: ZEntryAdd,
    response: ZBillingEntryAdd,
    handler: ({ ctx, actor, body }) => addEntry(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/billing/entries/reverse/:id.json',
    area: 'billing',
    summary: 'Reverse an entry with a new `reversal` entry; never a reversal, never twice (roles <= 170)',
    access: { who: billingGates.office },
    params: z.object({ id: zId }),
    body: ZReverse,
    response: ZBillingEntryReverse,
    handler: ({ ctx, actor, params, body }) => reverseEntry(ctx, actor, params.id, body.description),
  }),

  defineRoute({
    method: 'GET',
    path: '/billing/statement/:userId/:month.pdf',
    area: 'billing',
    summary:
      'Monthly statement PDF in the company zone: opening balance, the month’s entries by creation time, closing balance (own, or roles <= 170)',
    access: { who: billingGates.own, queryToken: true },
    params: z.object({ userId: zId, month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Expected a month YYYY-MM') }),
    file: { mediaType: 'application/pdf' },
    handler: async ({ ctx, actor, params, res }) => {
      const user = await requireAccountUser(ctx.db, actor, params.userId);
      await sendStatement(ctx, actor, user, params.month, res);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/manager/billing/entries/export.json',
    area: 'billing',
    summary:
      'Every entry between two dates of the company zone as CSV or XLSX: date, user id, name, kind, description, net, tax, amount, hours, flight id, entry id (roles <= 170)',
    access: { who: billingGates.office, queryToken: true },
    query: ZExportQuery,
    file: { mediaType: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] },
    handler: async ({ ctx, actor, query, res }) => {
      requireBilling(actor);
      await sendEntriesExport(ctx, actor, query, res);
    },
  }),
];
