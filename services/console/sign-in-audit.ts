// The audit rows of a person proving who they are: a sign-in and a failed one are written in each account they are a
// member of (any of them may be the one an intruder is after), a failed step-up in the account the session is on.
import type { AuditOrigin } from '../audit/record.ts';
import { recordAudit } from '../audit/record.ts';
import type { ServiceContext } from '../context.ts';

type Person = { id: number; email: string };

/** One row per account of the person: `session.sign_in`, or `session.sign_in_failed` (denied). */
export async function auditSignIn(ctx: Pick<ServiceContext, 'models' | 'now'>, person: Person, succeeded: boolean, origin: AuditOrigin): Promise<void> {
  const memberships = await ctx.models.Membership.findAll({ where: { user_id: person.id }, attributes: ['account_id'] });
  for (const { account_id: accountId } of memberships) {
    await recordAudit(ctx, {
      accountId,
      actor: { type: 'user', userId: person.id, label: person.email },
      action: succeeded ? 'session.sign_in' : 'session.sign_in_failed',
      outcome: succeeded ? 'success' : 'denied',
      origin,
    });
  }
}

/** A wrong password given again for a step-up (or a password change): `session.step_up_failed` (denied). */
export async function auditStepUpFailed(ctx: Pick<ServiceContext, 'models' | 'now'>, person: Person, accountId: number, origin: AuditOrigin): Promise<void> {
  await recordAudit(ctx, { accountId, actor: { type: 'user', userId: person.id, label: person.email }, action: 'session.step_up_failed', outcome: 'denied', origin });
}
