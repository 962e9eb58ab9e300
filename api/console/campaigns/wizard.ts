// The campaign wizard's first two steps: name and sender (creating the draft, as `POST /campaign/save` does), then
// the eCards (copied into the campaign, as `saveCampaignEcards`). The draft campaign is the wizard's server-side
// state: each step saves through the key API's use case and the next step reads the draft back.
import { z } from 'zod';
import { localeCode } from '../../../services/i18n/locale-code.ts';
import { PERSONAL_MESSAGE_MAX, PERSONAL_MESSAGE_TOO_LONG } from '../../../services/sends/accept/personal-message.ts';
import { findCampaign, saveCampaign } from '../../../services/campaigns/campaigns.ts';
import { campaignEcards } from '../../../services/campaigns/ecards.ts';
import { pickableEcards } from '../../../services/campaigns/picker.ts';
import type { ServiceContext } from '../../../services/context.ts';
import type { Campaign } from '../../../models/Campaign.ts';
import { CampaignIdParams } from '../../campaigns/schema.ts';
import { saveCampaignEcards } from '../../../services/campaigns/ecards.ts';
import { definePage, page, seeOther, type AnyRoute, type PageResult } from '../../http/route.ts';
import { CAMPAIGNS, campaignPath, fieldErrors, refusal, stepsOf } from './common.ts';
import { readListBody } from './form.ts';

const DetailsForm = z.object({
  campaign_name: z.string().trim().min(1, 'Give the campaign a name').max(200, 'At most 200 characters'),
  from_name: z.string().trim().max(200, 'At most 200 characters'),
  from_email: z.email('Enter an email address such as people@example.com').max(254),
  personal_message: z.string().max(PERSONAL_MESSAGE_MAX, `A personal message is ${PERSONAL_MESSAGE_TOO_LONG}`),
  locale: localeCode('Enter a language code such as en or fr-CA, or a language name such as hebrew'),
});
const DETAIL_FIELDS = ['campaign_name', 'from_name', 'from_email', 'personal_message', 'locale'] as const;

const EcardsForm = z.object({
  ecard_ids: z.array(z.coerce.number().int().positive()).min(1, 'Pick at least one eCard').max(20, 'At most 20 eCards'),
});

function valuesOf(campaign: Campaign | null): Record<string, string> {
  return {
    campaign_name: campaign?.campaign_name ?? '',
    from_name: campaign?.from_name ?? '',
    from_email: campaign?.from_email ?? '',
    personal_message: campaign?.personal_message ?? '',
    locale: campaign?.locale ?? 'en',
  };
}

function detailsPage(id: number, values: Record<string, string>, extra: { errors?: Record<string, string>; error?: string } = {}, status?: number): PageResult {
  return page(
    {
      title: id ? `Campaign “${values.campaign_name}”: name and sender` : 'New campaign',
      view: 'campaign-details',
      styles: ['campaigns.css'],
      steps: stepsOf(id, 'details'),
      action: id ? campaignPath(id, 'details') : CAMPAIGNS,
      values,
      errors: extra.errors ?? {},
      error: extra.error,
      id,
    },
    status,
  );
}

async function ecardsPage(services: ServiceContext, campaign: Campaign, extra: { errors?: Record<string, string>; error?: string; picked?: number[] } = {}, status?: number): Promise<PageResult> {
  const chosen = extra.picked ?? (await campaignEcards(services, campaign)).flatMap((e) => (e.source_ecard_id ? [e.source_ecard_id] : []));
  const ecards = await pickableEcards(services, campaign.account_id);
  return page(
    {
      title: `Campaign “${campaign.campaign_name}”: eCards`,
      view: 'campaign-ecards',
      styles: ['campaigns.css'],
      steps: stepsOf(campaign.id, 'ecards'),
      campaign: { id: campaign.id, name: campaign.campaign_name },
      ecards: ecards.map((e) => ({ ...e, checked: chosen.includes(e.id) })),
      errors: extra.errors ?? {},
      error: extra.error,
    },
    status,
  );
}

/** The draft a step edits: another account's id is a 404; a campaign past its draft goes to its own page. */
async function draftOf(services: ServiceContext, accountId: number, id: number): Promise<Campaign | PageResult> {
  const campaign = await findCampaign(services, accountId, id);
  return campaign.status === 'draft' ? campaign : seeOther(campaignPath(campaign.id));
}
const isCampaign = (value: Campaign | PageResult): value is Campaign => 'campaign_name' in value;

async function saveDetails(services: ServiceContext, accountId: number, id: number, form: Record<string, string>): Promise<PageResult> {
  const typed = Object.fromEntries(DETAIL_FIELDS.map((f) => [f, form[f] ?? ''])) as Record<string, string>;
  const parsed = DetailsForm.safeParse(typed);
  if (!parsed.success) return detailsPage(id, typed, { errors: fieldErrors(parsed.error) }, 400);
  try {
    const saved = await saveCampaign(services, accountId, id || undefined, parsed.data);
    return seeOther(id ? campaignPath(saved.id, 'ecards') : `${campaignPath(saved.id, 'ecards')}?done=created`);
  } catch (err) {
    const { message, status } = refusal(err);
    return detailsPage(id, typed, { error: message }, status);
  }
}

export const campaignWizardRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/new',
    async handler() {
      return detailsPage(0, valuesOf(null));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns',
    audit: 'campaigns.save',
    async handler({ form }, { services, account }) {
      return saveDetails(services, account.id, 0, form);
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/details',
    params: CampaignIdParams,
    async handler({ params }, { services, account }) {
      const draft = await draftOf(services, account.id, params.id);
      return isCampaign(draft) ? detailsPage(draft.id, valuesOf(draft)) : draft;
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/details',
    audit: 'campaigns.save',
    params: CampaignIdParams,
    async handler({ params, form }, { services, account }) {
      const draft = await draftOf(services, account.id, params.id);
      return isCampaign(draft) ? saveDetails(services, account.id, draft.id, form) : draft;
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/ecards',
    params: CampaignIdParams,
    async handler({ params }, { services, account, koa }) {
      const draft = await draftOf(services, account.id, params.id);
      if (!isCampaign(draft)) return draft;
      const result = await ecardsPage(services, draft);
      if ('view' in result && koa.query.done === 'created') result.view.notice = 'The campaign is saved as a draft. Now pick its eCards.';
      return result;
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/ecards',
    audit: 'campaigns.save_ecards',
    params: CampaignIdParams,
    readBody: readListBody(['ecard_ids']),
    async handler({ params, form }, { services, account }) {
      const draft = await draftOf(services, account.id, params.id);
      if (!isCampaign(draft)) return draft;
      const ids = (form.ecard_ids ?? '').split(',').filter(Boolean);
      const parsed = EcardsForm.safeParse({ ecard_ids: ids });
      if (!parsed.success) return ecardsPage(services, draft, { errors: fieldErrors(parsed.error), picked: [] }, 400);
      try {
        await saveCampaignEcards(services, account.id, draft.id, parsed.data.ecard_ids);
      } catch (err) {
        // One disabled meanwhile: the service's reason on the step (another account's id stays a 404 page).
        const { message, status } = refusal(err);
        return ecardsPage(services, draft, { error: message, picked: parsed.data.ecard_ids }, status);
      }
      return seeOther(campaignPath(draft.id, 'recipients'));
    },
  }),
];
