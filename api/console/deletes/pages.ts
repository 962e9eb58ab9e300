// Deleting a campaign or an automation from the console: a confirmation page naming it (with its status) and a POST
// button, then a 303 to a done notice. The same services as the console API's deletes group; another account's id
// is a 404 page.
import { findAutomation } from '../../../services/automations/automations.ts';
import { deleteAutomation } from '../../../services/automations/delete.ts';
import { findCampaign } from '../../../services/campaigns/campaigns.ts';
import { deleteCampaign } from '../../../services/campaigns/delete.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { definePage, page, seeOther, type AnyRoute } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { IdParams } from './router.ts';

type Kind = 'campaigns' | 'automations';
const NOUN: Record<Kind, string> = { campaigns: 'campaign', automations: 'automation' };

/** What the confirmation page names: the campaign's or automation's name and status (404 when not the account's). */
async function describe(services: ServiceContext, kind: Kind, accountId: number, id: number): Promise<{ name: string; status: string; note: string }> {
  if (kind === 'campaigns') {
    const campaign = await findCampaign(services, accountId, id);
    const running = campaign.status === 'scheduled' || campaign.status === 'sending';
    return {
      name: campaign.campaign_name,
      status: campaign.status,
      note: `${running ? 'It is canceled first (its quota and gift cards come back). ' : ''}Its recipients and its eCards go with it; the cards already sent stay viewable.`,
    };
  }
  const { row } = await findAutomation(services, accountId, id);
  return { name: row.automation_name, status: row.enabled ? 'enabled' : 'disabled', note: 'Its schedule stops; the cards it already sent stay viewable.' };
}

export const deletePageRoutes: AnyRoute[] = (['campaigns', 'automations'] as const).flatMap((kind) => [
  definePage({
    method: 'get',
    role: { area: kind, level: 'manage' },
    path: `/${kind}/:id/delete`,
    params: IdParams,
    async handler({ params: { id } }, { services, account }) {
      const item = await describe(services, kind, account.id, id);
      return page({ title: `Delete the ${NOUN[kind]} “${item.name}”`, view: 'delete-confirm', kind, noun: NOUN[kind], id, item });
    },
  }),
  definePage({
    method: 'post',
    role: { area: kind, level: 'manage' },
    path: `/${kind}/:id/delete`,
    audit: `${kind}.delete`,
    params: IdParams,
    async handler({ params: { id } }, { services, account }) {
      if (kind === 'campaigns') await deleteCampaign(services, account.id, id);
      else await deleteAutomation(services, account.id, id);
      return seeOther(`${CONSOLE_PREFIX}/${kind}/${id}/deleted`);
    },
  }),
  definePage({
    method: 'get',
    role: { area: kind, level: 'view' },
    path: `/${kind}/:id/deleted`,
    params: IdParams,
    async handler({ params: { id } }) {
      return page({ title: `${NOUN[kind] === 'campaign' ? 'Campaign' : 'Automation'} deleted`, view: 'delete-done', noun: NOUN[kind], id, notice: `The ${NOUN[kind]} ${id} was deleted.` });
    },
  }),
]);
