import { GATES } from '@ops/shared';
import type { Request } from 'express';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { zId } from '../../http/zod.ts';
import { enableTotp, setupTotp } from './two-factor.service.ts';
import { login, startChallenge, verifyChallenge } from './login.service.ts';
import { accountsOfIdentity, openSession, revokeSession, type ClientInfo } from './sessions.repository.ts';
import {
  ZLogout,
  ZUsersOrganizations,
  ZUsersTwoFactorTotpSetup,
  ZUsersTwoFactorTotpEnable,
} from './accounts.responses.ts';

const clientOf = (req: Request): ClientInfo => ({ ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });

/** JSON `{email, password, company_id}` or form `data[User][email]`, `data[User][password]` (CONTRACT 2). */
const ZLogin = z.preprocess(
  (raw) => {
    const b = (raw ?? {}) as { data?: { User?: Record<string, unknown> } } & Record<string, unknown>;
    const form = b.data?.User ?? {};
    return {
      email: b.email ?? form.email,
      password: b.password ?? form.password,
      company_id: b.company_id ?? form.company_id,
    };
  },
  z.object({
    email: z.string({ error: 'Email is required' }).trim().toLowerCase().min(1, 'Email is required').max(254),
    password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
    company_id: zId.optional(),
  }),
);

const ZLoginUser = z.object({
  id: z.string(),
  email: z.string().nullable(),
  user_group_id: z.number(),
  company_id: z.string(),
});
const ZLoginSuccess = z.object({ result: z.literal(true), token: z.string(), expires: z.number(), user: ZLoginUser });
const ZChallenge = z.object({ result: z.literal(false), two_factor: z.enum(['EMAIL', 'TOTP']), challenge: z.string() });

export const accountsRoutes = [
  defineRoute({
    method: 'POST',
    path: '/login.json',
    area: 'accounts',
    summary: 'Sign in with email and password; answers a session token or a two-factor challenge',
    access: { public: true },
    body: ZLogin,
    response: z.union([ZLoginSuccess, ZChallenge]),
    handler: async ({ ctx, body, req }) => {
      const out = await login(
        ctx,
        { email: body.email, password: body.password, companyId: body.company_id },
        clientOf(req),
      );
      if (out.result) {
        const { session_id: _s, ...rest } = out;
        return rest;
      }
      return out;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/login/verify.json',
    area: 'accounts',
    summary: 'Answer a two-factor challenge with the emailed or TOTP code',
    access: { public: true },
    body: z.object({ challenge: zId, code: z.string().trim().min(1, 'Code is required').max(12) }),
    response: ZLoginSuccess,
    handler: async ({ ctx, body, req }) => {
      const { session_id: _s, ...rest } = await verifyChallenge(ctx, body, clientOf(req));
      return rest;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/logout.json',
    noBody: true,
    area: 'accounts',
    summary: 'End the presented session',
    access: { who: GATES.member },
    response: ZLogout,
    handler: async ({ ctx, actor }) => {
      if (actor.credential.kind === 'session') await revokeSession(ctx.db, actor.credential.id);
      return {
        result: true,
        message: actor.credential.kind === 'session' ? 'Signed out' : 'API keys are not affected by logout',
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/organizations.json',
    area: 'accounts',
    summary: 'Companies the caller’s login belongs to, keyed by company id',
    access: { who: GATES.member },
    response: ZUsersOrganizations,
    handler: async ({ ctx, actor }) => {
      const rows = actor.identityId ? await accountsOfIdentity(ctx.db, actor.identityId) : [];
      const out: Record<
        string,
        { id: string; name: string; user_id: string; user_group_id: number; current: boolean }
      > = {};
      for (const r of rows)
        out[r.company_id] = {
          id: r.company_id,
          name: r.company_name,
          user_id: r.id,
          user_group_id: r.user_group_id,
          current: r.company_id === actor.companyId,
        };
      return out;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/switch/:companyId.json',
    area: 'accounts',
    summary:
      'Switch to another company of the same login: a new token, and the presented one stops working. When the target account has two-factor (EMAIL or TOTP; always EMAIL for an external auditor) the answer is the sign-in challenge instead, finished with /login/verify.json',
    access: { who: GATES.member, sessionOnly: true },
    params: z.object({ companyId: zId }),
    response: z.union([ZLoginSuccess, ZChallenge]),
    handler: async ({ ctx, actor, params, req }) => {
      if (!actor.identityId) throw forbidden();
      const identityId = actor.identityId;
      const target = (await accountsOfIdentity(ctx.db, identityId)).find((a) => a.company_id === params.companyId);
      if (!target) throw notFound('You have no account in that company');
      // The second factor protects the target account: a session of another account must not skip it.
      if (target.id !== actor.userId) {
        const identity = await ctx.db
          .selectFrom('identities')
          .select('email')
          .where('id', '=', identityId)
          .executeTakeFirstOrThrow();
        const challenge = await startChallenge(ctx, target, identity.email, clientOf(req).ip ?? 'unknown');
        if (challenge) {
          await revokeSession(ctx.db, actor.credential.id);
          return challenge;
        }
      }
      const session = await openSession(ctx.db, target, clientOf(req), 'switch');
      await revokeSession(ctx.db, actor.credential.id);
      const { session_id: _s, ...rest } = session;
      return rest;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/users/two_factor/totp/setup.json',
    noBody: true,
    area: 'accounts',
    summary: 'Start TOTP enrolment: a new secret and its otpauth URL',
    access: { who: GATES.member, sessionOnly: true },
    response: ZUsersTwoFactorTotpSetup,
    handler: ({ ctx, actor }) => setupTotp(ctx, actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/users/two_factor/totp/enable.json',
    area: 'accounts',
    summary: 'Finish TOTP enrolment with a code from the authenticator app',
    access: { who: GATES.member, sessionOnly: true },
    body: z.object({ code: z.string().trim().min(6, 'Code is required').max(12) }),
    response: ZUsersTwoFactorTotpEnable,
    handler: ({ ctx, actor, body }) => enableTotp(ctx, actor, body.code),
  }),
];
