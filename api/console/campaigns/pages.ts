// The console's campaigns: the list (status filter, paging) and a campaign's page (live counts and a progress bar
// its script refreshes, the recipients' states, unschedule, cancel, locale, delete through the delete pages). Every
// change goes through the key API's use cases (services/campaigns/*).
import type { Context } from 'koa';
import { z } from 'zod';
import { localeCode } from '../../../services/i18n/locale-code.ts';
import { CAMPAIGN_STATUSES, type Campaign } from '../../../models/Campaign.ts';
import { findCampaign, listCampaigns, updateLocale } from '../../../services/campaigns/campaigns.ts';
import { cancelCampaign, unscheduleCampaign } from '../../../services/campaigns/moves.ts';
import { listRecipients } from '../../../services/campaigns/recipients.ts';
import { campaignView, campaignViews, type CampaignView } from '../../../services/campaigns/view.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { CampaignIdParams, RECIPIENT_ZONE } from '../../campaigns/schema.ts';
import { localIso } from '../../../services/campaigns/schedule-time.ts';
import { presentCampaign } from '../../campaigns/present.ts';
import { definePage, page, seeOther, type AnyRoute, type PageResult } from '../../http/route.ts';
import { pageQuery } from '../../schema-helpers.ts';
import { paging } from '../kit/render.ts';
import { badgeOf, CAMPAIGNS, campaignPath, fieldErrors, isLive, progressOf, refusal } from './common.ts';

const LIST_ROWS = 20;
const RECIPIENT_ROWS = 20;
/** How often the campaign page's script asks for new figures. */
export const REFRESH_MS = 2000;

const NOTICES: Record<string, string> = {
  created: 'The campaign is saved as a draft.',
  scheduled: 'The campaign is scheduled.',
  sending: 'The campaign is sending.',
  unscheduled: 'The campaign is back to draft; its quota is released.',
  canceled: 'The campaign is canceled: recipients not yet sent to will not get it.',
  locale: 'The language is saved.',
};
const noticeOf = (ctx: Context) => NOTICES[String(ctx.query.done)] ?? undefined;

const ListQuery = pageQuery(100, LIST_ROWS).extend({ status: z.enum(CAMPAIGN_STATUSES).optional() });
const CampaignPageQuery = pageQuery(100, RECIPIENT_ROWS);
const LocaleForm = z.object({ locale: localeCode('Enter a language code such as en or fr-CA, or a language name such as hebrew') });

const wallText = (local: string) => local.slice(0, 16).replace('T', ' ');

/** A campaign as the list and its page show it. */
function rowOf(view: CampaignView) {
  const c = presentCampaign(view);
  const zone = c.scheduled_timezone === RECIPIENT_ZONE ? 'in each recipient’s zone' : c.scheduled_timezone;
  return {
    ...c,
    href: campaignPath(c.id),
    badge: badgeOf(c.status),
    scheduled: c.scheduled_at_local ? `${wallText(c.scheduled_at_local)} ${zone}` : '',
    // Each wave at its zone's wall clock (what the recipients see) and in UTC, and whether it has gone out.
    waveRows: view.waves.map((w) => ({
      timezone: w.timezone,
      local: wallText(localIso(w.send_at, w.timezone)),
      send_at: w.send_at.toISOString(),
      recipients: w.recipients,
      done: w.completed_at !== null,
    })),
    progress: progressOf(c.status, c.counts),
  };
}

async function campaignPage(
  ctx: { services: ServiceContext; accountId: number },
  campaign: Campaign,
  extra: { notice?: string | undefined; error?: string | undefined; errors?: Record<string, string>; locale?: string; recipientsPage?: number },
  status?: number,
): Promise<PageResult> {
  const view = rowOf(await campaignView(ctx.services, campaign));
  const pageNo = extra.recipientsPage ?? 1;
  const { rows, count } = await listRecipients(ctx.services, ctx.accountId, campaign.id, { page: pageNo, perPage: RECIPIENT_ROWS });
  const counts = Object.entries(view.counts).filter(([k]) => k !== 'recipients').map(([name, value]) => ({ name, value }));
  return page(
    {
      title: view.campaign_name,
      view: 'campaign',
      styles: ['campaigns.css'],
      scripts: isLive(view.status) ? ['campaign-progress.js'] : [],
      notice: extra.notice,
      error: extra.error,
      errors: extra.errors ?? {},
      campaign: view,
      counts,
      draft: view.status === 'draft',
      canUnschedule: view.status === 'scheduled',
      canCancel: isLive(view.status),
      localeValue: extra.locale ?? view.locale,
      progressUrl: `/v2/console/api/campaigns/${view.id}/progress`,
      refreshMs: REFRESH_MS,
      recipients: rows.map(({ recipient: r, opened }) => ({ email: r.email, name: r.name, source: r.source, status: r.status, reason: r.reason, sent_at: r.sent_at?.toISOString() ?? '', opened })),
      ...paging(pageNo, RECIPIENT_ROWS, count, (n) => `${campaignPath(campaign.id)}?page=${n}`),
    },
    status,
  );
}

const moveRoute = (name: 'unschedule' | 'cancel', run: typeof unscheduleCampaign, done: string): AnyRoute =>
  definePage({
    method: 'post',
    role: { area: 'campaigns', level: 'manage' },
    path: `/campaigns/:id/${name}`,
    audit: `campaigns.${name}`,
    params: CampaignIdParams,
    async handler({ params }, { services, account }) {
      const campaign = await findCampaign(services, account.id, params.id);
      try {
        await run(services, account.id, campaign.id);
      } catch (err) {
        const { message, status } = refusal(err);
        return campaignPage({ services, accountId: account.id }, await campaign.reload(), { error: message }, status);
      }
      return seeOther(`${campaignPath(campaign.id)}?done=${done}`);
    },
  });

export const campaignPageRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'campaigns', level: 'view' },
    path: '/campaigns',
    query: ListQuery,
    async handler({ query }, { services, account, koa }) {
      const { rows, count } = await listCampaigns(services, account.id, { page: query.page, perPage: query.perPage, status: query.status });
      const views = await campaignViews(services, rows);
      const filter = query.status ? `&status=${query.status}` : '';
      return page({
        title: 'Campaigns',
        view: 'campaigns',
        styles: ['campaigns.css'],
        notice: noticeOf(koa),
        campaigns: views.map(rowOf),
        statuses: CAMPAIGN_STATUSES.map((s) => ({ value: s, selected: s === query.status })),
        filtered: Boolean(query.status),
        ...paging(query.page, query.perPage, count, (n) => `${CAMPAIGNS}?page=${n}${filter}`),
      });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'campaigns', level: 'view' },
    path: '/campaigns/:id',
    params: CampaignIdParams,
    query: CampaignPageQuery,
    async handler({ params, query }, { services, account, koa }) {
      const campaign = await findCampaign(services, account.id, params.id);
      return campaignPage({ services, accountId: account.id }, campaign, { notice: noticeOf(koa), recipientsPage: query.page });
    },
  }),
  moveRoute('unschedule', unscheduleCampaign, 'unscheduled'),
  moveRoute('cancel', cancelCampaign, 'canceled'),
  definePage({
    method: 'post',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/locale',
    audit: 'campaigns.set_locale',
    params: CampaignIdParams,
    async handler({ params, form }, { services, account }) {
      const campaign = await findCampaign(services, account.id, params.id);
      const parsed = LocaleForm.safeParse({ locale: form.locale ?? '' });
      if (!parsed.success) {
        return campaignPage({ services, accountId: account.id }, campaign, { errors: fieldErrors(parsed.error), locale: form.locale ?? '' }, 400);
      }
      try {
        await updateLocale(services, account.id, campaign.id, parsed.data.locale);
      } catch (err) {
        const { message, status } = refusal(err);
        return campaignPage({ services, accountId: account.id }, campaign, { errors: { locale: message }, locale: parsed.data.locale }, status);
      }
      return seeOther(`${campaignPath(campaign.id)}?done=locale`);
    },
  }),
];
