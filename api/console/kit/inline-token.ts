// A gated action from a console page (delete a widget, an eCard or a brand in use; turn off a widget's directory
// rule): the owner never copies a token by hand. The first POST tries without one; a `requires_otp` refusal
// answers a confirmation naming what is affected; confirming (`confirm=yes`) steps up where the purpose needs it,
// then issues the token and spends it in the same request.
import { ApiError } from '../../../lib/errors.ts';
import type { TokenPurpose } from '../../../models/ConfirmationToken.ts';
import { issueTokenFor, tokenNeedsStepUp } from '../../../services/confirmation-tokens.ts';
import type { Account } from '../../../models/Account.ts';
import type { ServiceContext } from '../../../services/context.ts';
import type { StepUpNeed } from '../../http/route.ts';

export interface InlineGate {
  purpose: TokenPurpose;
  /** The resource the token is issued for (the widget's, eCard's or brand's id). */
  resourceId: number;
  /** What the step-up page says is being confirmed, e.g. "Delete the widget “Thanks”". */
  action: string;
  /** The GET page showing the confirmation again, where the step-up comes back to. */
  back: string;
}

/** What the action needs confirmed: the service's message and what it affects (`impact` of the refusal). */
export interface Confirmation {
  message: string;
  impact: unknown;
}

export type Gated<T> = { done: T } | { confirm: Confirmation };

export async function withInlineToken<T>(
  context: { services: ServiceContext; account: Account; requireStepUp: (need: StepUpNeed) => void },
  form: Record<string, string>,
  gate: InlineGate,
  run: (token: string | undefined) => Promise<T>,
): Promise<Gated<T>> {
  const { services, account } = context;
  if (form.confirm === 'yes') {
    if (tokenNeedsStepUp(gate.purpose)) context.requireStepUp({ action: gate.action, back: gate.back });
    const { token } = await issueTokenFor(services, { accountId: account.id, purpose: gate.purpose, resourceId: gate.resourceId, now: services.now() });
    return { done: await run(token) };
  }
  try {
    return { done: await run(undefined) };
  } catch (err) {
    if (err instanceof ApiError && err.extra.requires_otp === true && err.extra.otp_purpose === gate.purpose) {
      return { confirm: { message: err.message, impact: err.extra.impact ?? null } };
    }
    throw err;
  }
}
