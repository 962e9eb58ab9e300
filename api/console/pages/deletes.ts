// Deleting a campaign or an automation from the console: a confirmation page naming it (with its status) and a POST
// button, then a 303 to a done notice. The same services as the console API's deletes group; another account's id
// is a 404 page.
import Router from '@koa/router';
import { findAutomation } from '../../../services/automations/automations.ts';
import { deleteAutomation } from '../../../services/automations/delete.ts';
import { findCampaign } from '../../../services/campaigns/campaigns.ts';
import { deleteCampaign } from '../../../services/campaigns/delete.ts';
import type { ApiServices, ApiState } from '../../context.ts';
import { parseInput } from '../../validation.ts';
import { IdParams } from '../deletes/router.ts';
import { renderPage } from './render.ts';
import { CONSOLE_PREFIX, pageForm, seeOther, signedIn } from './router.ts';

type Kind = 'campaigns' | 'automations';
const NOUN: Record<Kind, string> = { campaigns: 'campaign', automations: 'automation' };

export function consoleDeletePagesRouter(services: ApiServices): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: CONSOLE_PREFIX });
  const idOf = (params: unknown) => parseInput(IdParams, params, 'path').id;

  /** What the confirmation page names: the campaign's or automation's name and status (404 when not the account's). */
  async function describe(kind: Kind, accountId: number, id: number): Promise<{ name: string; status: string; note: string }> {
    if (kind === 'campaigns') {
      const campaign = await findCampaign(services.models, accountId, id);
      const running = campaign.status === 'scheduled' || campaign.status === 'sending';
      return {
        name: campaign.campaign_name,
        status: campaign.status,
        note: `${running ? 'It is canceled first (its quota and gift cards come back). ' : ''}Its recipients and its eCards go with it; the cards already sent stay viewable.`,
      };
    }
    const { row } = await findAutomation(services.models, accountId, id);
    return { name: row.automation_name, status: row.enabled ? 'enabled' : 'disabled', note: 'Its schedule stops; the cards it already sent stay viewable.' };
  }

  for (const kind of ['campaigns', 'automations'] as const) {
    router.get(
      `/${kind}/:id/delete`,
      signedIn(services, async (ctx, page) => {
        const id = idOf(ctx.params);
        const item = await describe(kind, page.account.id, id);
        renderPage(ctx, { title: `Delete the ${NOUN[kind]} “${item.name}”`, view: 'delete-confirm', ...page, kind, noun: NOUN[kind], id, item });
      }),
    );
    router.post(
      `/${kind}/:id/delete`,
      signedIn(services, async (ctx, page) => {
        const id = idOf(ctx.params);
        await pageForm(services, ctx, page);
        if (kind === 'campaigns') await deleteCampaign(services, page.account.id, id);
        else await deleteAutomation(services, page.account.id, id);
        seeOther(ctx, `${CONSOLE_PREFIX}/${kind}/${id}/deleted`);
      }),
    );
    router.get(
      `/${kind}/:id/deleted`,
      signedIn(services, async (ctx, page) => {
        const id = idOf(ctx.params);
        renderPage(ctx, { title: `${NOUN[kind] === 'campaign' ? 'Campaign' : 'Automation'} deleted`, view: 'delete-done', ...page, noun: NOUN[kind], id, notice: `The ${NOUN[kind]} ${id} was deleted.` });
      }),
    );
  }
  return router;
}
