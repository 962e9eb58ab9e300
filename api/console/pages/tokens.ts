// The console's confirmation tokens page: a purpose and the resource's id → a one-time token shown once, for the key
// API's gated actions. The same service as the console API's tokens group; gift-card and widget-delete tokens need
// step-up (which comes back to the form, filled in).
import Router from '@koa/router';
import { TOKEN_PURPOSES } from '../../../models/ConfirmationToken.ts';
import { issueTokenFor, tokenNeedsStepUp } from '../../../services/confirmation-tokens.ts';
import type { ApiServices, ApiState } from '../../context.ts';
import { parseInput } from '../../validation.ts';
import { IssueTokenBody } from '../tokens/schema.ts';
import { renderPage } from './render.ts';
import { CONSOLE_PREFIX, pageForm, pageStepUp, signedIn } from './router.ts';

const PURPOSES: Record<(typeof TOKEN_PURPOSES)[number], string> = {
  widget_delete: 'Delete a widget in use (widget id)',
  widget_dir_sender_off: 'Turn off a widget\'s directory-sender rule (widget id)',
  ecard_delete_in_use: 'Delete an eCard in use (eCard id)',
  gc_campaign_send: 'Send a campaign with gift cards (campaign id)',
  gc_automation_enable: 'Enable an automation with gift cards (automation id; empty for a new one)',
};

export function consoleTokenPagesRouter(services: ApiServices): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: CONSOLE_PREFIX });
  router.get(
    '/tokens',
    signedIn(services, async (ctx, page) => {
      const chosen = typeof ctx.query.purpose === 'string' ? ctx.query.purpose : '';
      const purposes = TOKEN_PURPOSES.map((purpose) => ({ purpose, label: PURPOSES[purpose], selected: purpose === chosen, stepUp: tokenNeedsStepUp(purpose) }));
      const resourceId = typeof ctx.query.resource_id === 'string' && /^[0-9]{1,16}$/.test(ctx.query.resource_id) ? ctx.query.resource_id : '';
      renderPage(ctx, { title: 'Confirmation tokens', view: 'tokens', ...page, purposes, resource_id: resourceId });
    }),
  );
  router.post(
    '/tokens',
    signedIn(services, async (ctx, page) => {
      const form = await pageForm(services, ctx, page);
      const rawId = (form.resource_id ?? '').trim();
      const body = parseInput(IssueTokenBody, { purpose: form.purpose, resource_id: rawId === '' ? null : rawId }, 'body');
      const back = `${CONSOLE_PREFIX}/tokens?purpose=${body.purpose}&resource_id=${body.resource_id ?? ''}`;
      if (tokenNeedsStepUp(body.purpose) && !pageStepUp(services, ctx, page, back)) return;
      const resourceId = body.resource_id ?? null;
      const { token, expiresAt } = await issueTokenFor(services.models, { accountId: page.account.id, purpose: body.purpose, resourceId, now: services.now() });
      renderPage(ctx, {
        title: 'Your confirmation token',
        view: 'tokens-secret',
        ...page,
        token,
        purpose: body.purpose,
        label: PURPOSES[body.purpose],
        resource_id: resourceId,
        expires: expiresAt.toISOString(),
      });
    }),
  );
  return router;
}
