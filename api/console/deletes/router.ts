// Deleting a campaign or an automation: only here (the key API answers 403 console_only). The console's page asks
// for the confirmation; the API call is the confirmed action. Another account's id → 404.
import { z } from 'zod';
import { deleteAutomation } from '../../../services/automations/delete.ts';
import { deleteCampaign } from '../../../services/campaigns/delete.ts';
import { numericId, resource } from '../../schema-helpers.ts';
import { defineSessionRoute } from '../../http/route.ts';

export const IdParams = z.object({ id: numericId() });
const CampaignIdParams = z.object({ id: resource('campaign', numericId()) });
const AutomationIdParams = z.object({ id: resource('automation', numericId()) });
const Deleted = z.object({ deleted: z.array(z.number().int()) });

export const consoleDeleteRoutes = [
  defineSessionRoute({
    method: 'post',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/delete',
    audit: 'campaigns.delete',
    summary: 'Deletes a campaign (a scheduled or sending one is canceled first), its recipients and backing widget; its sends stay',
    params: CampaignIdParams,
    response: Deleted,
    async handler({ params }, { services, account }) {
      await deleteCampaign(services, account.id, params.id);
      return { deleted: [params.id] };
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'automations', level: 'manage' },
    path: '/automations/:id/delete',
    audit: 'automations.delete',
    summary: 'Deletes an automation and its Schedule; its sends stay',
    params: AutomationIdParams,
    response: Deleted,
    async handler({ params }, { services, account }) {
      await deleteAutomation(services, account.id, params.id);
      return { deleted: [params.id] };
    },
  }),
];
