import type { Job } from '../../jobs/scheduler.ts';

/** Mails per run; the rest wait for the next tick. */
const BATCH = 200;

/**
 * Sends the mails queued with billing entries (`billing_mail_queue`) through
 * the mailer, marking each sent; a crash between the two sends one mail twice
 * at worst, never none.
 */
export const billingMailJob: Job = {
  name: 'billing.mail',
  everySeconds: 30,
  async run(ctx) {
    const due = await ctx.db
      .selectFrom('billing_mail_queue as q')
      .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'q.user_id').onRef('u.company_id', '=', 'q.company_id'))
      .select(['q.id', 'q.company_id', 'q.subject', 'q.body', 'u.email', 'u.name'])
      .where('q.sent', 'is', null)
      .orderBy('q.created')
      .orderBy('q.id')
      .limit(BATCH)
      .execute();
    for (const m of due) {
      if (m.email)
        await ctx.mailer.send({
          to: m.email,
          template: 'account_entry',
          companyId: m.company_id,
          data: { name: m.name, subject: m.subject, text: m.body },
        });
      await ctx.db
        .updateTable('billing_mail_queue')
        .set({ sent: Math.floor(Date.now() / 1000) })
        .where('id', '=', m.id)
        .execute();
    }
  },
};
