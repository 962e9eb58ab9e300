// The console's confirmation tokens page: a purpose and the resource's id → a one-time token shown once, for the key
// API's gated actions. The same service as the console API's tokens group; gift-card and widget-delete tokens need
// step-up (which comes back to the form, filled in).
import { TOKEN_PURPOSES } from '../../../models/ConfirmationToken.ts';
import { issueTokenFor, tokenNeedsStepUp } from '../../../services/confirmation-tokens.ts';
import { roleAllows } from '../../../services/team/roles.ts';
import { purposeNeed } from './schema.ts';
import { definePage, page } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { IssueTokenBody } from './schema.ts';

const PURPOSES: Record<(typeof TOKEN_PURPOSES)[number], string> = {
  widget_delete: 'Delete a widget in use (widget id)',
  widget_dir_sender_off: 'Turn off a widget\'s directory-sender rule (widget id)',
  ecard_delete_in_use: 'Delete an eCard in use (eCard id)',
  gc_campaign_send: 'Send a campaign with gift cards (campaign id)',
  gc_automation_enable: 'Enable an automation with gift cards (automation id; empty for a new one)',
  brand_delete: 'Delete a brand used by eCards (brand id)',
};

export const tokenPageRoutes = [
  definePage({
    method: 'get',
    role: 'member',
    path: '/tokens',
    async handler(_input, { koa, role }) {
      const chosen = typeof koa.query.purpose === 'string' ? koa.query.purpose : '';
      const purposes = TOKEN_PURPOSES.filter((purpose) => roleAllows(role, purposeNeed(purpose))).map((purpose) => ({ purpose, label: PURPOSES[purpose], selected: purpose === chosen, stepUp: tokenNeedsStepUp(purpose) }));
      const resourceId = typeof koa.query.resource_id === 'string' && /^[0-9]{1,16}$/.test(koa.query.resource_id) ? koa.query.resource_id : '';
      return page({ title: 'Confirmation tokens', view: 'tokens', purposes, resource_id: resourceId });
    },
  }),
  definePage({
    method: 'post',
    role: 'member',
    path: '/tokens',
    audit: 'tokens.issue',
    body: IssueTokenBody,
    fromForm: (form) => {
      const rawId = (form.resource_id ?? '').trim();
      return { purpose: form.purpose, resource_id: rawId === '' ? null : rawId };
    },
    async handler({ body }, { services, account, requireStepUp, requireRole }) {
      requireRole(purposeNeed(body.purpose));
      const back = `${CONSOLE_PREFIX}/tokens?purpose=${body.purpose}&resource_id=${body.resource_id ?? ''}`;
      if (tokenNeedsStepUp(body.purpose)) requireStepUp({ action: `A ${body.purpose} token`, back });
      const resourceId = body.resource_id ?? null;
      const { token, expiresAt } = await issueTokenFor(services, { accountId: account.id, purpose: body.purpose, resourceId, now: services.now() });
      return page({
        title: 'Your confirmation token',
        view: 'tokens-secret',
        token,
        purpose: body.purpose,
        label: PURPOSES[body.purpose],
        resource_id: resourceId,
        expires: expiresAt.toISOString(),
      });
    },
  }),
];
