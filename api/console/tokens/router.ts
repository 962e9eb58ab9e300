// One-time confirmation tokens from the console, for the key API's gated actions (widget and in-use eCard
// deletes, turning off the directory rule, gift-card spend). The resource must be the current account's (404);
// gift-card and widget-delete tokens need step-up.
import { issueTokenFor, tokenNeedsStepUp } from '../../../services/confirmation-tokens.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { IssuedToken, IssueTokenBody, purposeNeed } from './schema.ts';

export const consoleTokenRoutes = [
  defineSessionRoute({
    method: 'post',
    role: 'member',
    path: '/tokens',
    audit: 'tokens.issue',
    summary: 'Issues a one-time confirmation token for a purpose and resource (valid 10 minutes), shown only now',
    body: IssueTokenBody,
    response: IssuedToken,
    async handler({ body }, { services, account, requireStepUp, requireRole }) {
      requireRole(purposeNeed(body.purpose));
      if (tokenNeedsStepUp(body.purpose)) requireStepUp({ action: `A ${body.purpose} token` });
      const resourceId = body.resource_id ?? null;
      const { token, expiresAt } = await issueTokenFor(services, { accountId: account.id, purpose: body.purpose, resourceId, now: services.now() });
      return { token, purpose: body.purpose, resource_id: resourceId, expires_at: expiresAt.toISOString() };
    },
  }),
];
