import { billingGates } from '@ops/shared/rules/billing/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId } from '../../http/zod.ts';
import { ZBillingCheckout, ZBillingProvider, ZBillingStripeWebhook } from './billing.responses.ts';
import { ZCheckout, ZProvider } from './billing.schema.ts';
import { createCheckout, receiveStripeEvent, saveProvider } from './payments.service.ts';

/** Online top-up through the company's Stripe account (docs/areas/billing.md). */
export const paymentsRoutes = [
  defineRoute({
    method: 'POST',
    path: '/manager/billing/provider.json',
    area: 'billing',
    summary:
      'Store the payment provider’s secret key and webhook signing secret, encrypted; never returned (roles <= 105)',
    access: { who: billingGates.manage, sessionOnly: true },
    body: ZProvider,
    response: ZBillingProvider,
    handler: ({ ctx, actor, body }) => saveProvider(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/billing/checkout.json',
    area: 'billing',
    summary: 'Start an online top-up of the caller’s account: a Stripe Checkout Session for `amount`; answers its URL',
    access: { who: billingGates.own },
    body: ZCheckout,
    response: ZBillingCheckout,
    handler: ({ ctx, actor, body }) => createCheckout(ctx, actor, body.amount),
  }),
  defineRoute({
    method: 'POST',
    path: '/billing/stripe/:companyId.json',
    area: 'billing',
    summary: 'Stripe’s signed webhook: a paid checkout.session.completed credits one payment, however often delivered',
    access: { public: true },
    params: z.object({ companyId: zId }),
    bodyDoc: z.object({
      id: z.string(),
      type: z.string(),
      data: z.object({ object: z.record(z.string(), z.unknown()) }),
    }),
    response: ZBillingStripeWebhook,
    handler: ({ ctx, params, req }) => receiveStripeEvent(ctx, params.companyId, req),
  }),
];
