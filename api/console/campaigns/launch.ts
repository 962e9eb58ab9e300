// The wizard's last step: a summary, the gift settings (saved on the draft as `POST /campaign/save` does), and send
// now or schedule at a wall-clock time in a time zone (`/campaign/send`, `/campaign/schedule`). A gift campaign
// leaving its draft needs a `gc_campaign_send` token: asked inline (a step-up, then issued and spent at once).
import { z } from 'zod';
import type { Campaign } from '../../../models/Campaign.ts';
import { findCampaign, saveCampaign } from '../../../services/campaigns/campaigns.ts';
import { scheduleCampaign, sendCampaign } from '../../../services/campaigns/moves.ts';
import { canonicalTimeZone, parseScheduledAt, parseWallClock } from '../../../services/campaigns/schedule-time.ts';
import { campaignView } from '../../../services/campaigns/view.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { listProducts } from '../../../services/rewards/catalog.ts';
import type { Account } from '../../../models/Account.ts';
import { ApiError } from '../../../lib/errors.ts';
import { CampaignIdParams, RECIPIENT_ZONE } from '../../campaigns/schema.ts';
import { definePage, page, seeOther, type AnyRoute, type PageResult } from '../../http/route.ts';
import { campaignPath, fieldErrors, refusal, stepsOf } from './common.ts';
import { zoneOptions } from '../kit/time-zones.ts';
import { withInlineToken, type Confirmation } from '../kit/inline-token.ts';

const LaunchForm = z.discriminatedUnion('when', [
  z.object({ when: z.literal('now') }),
  z.object({
    when: z.literal('later'),
    scheduled_at: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, 'Pick a date and time'),
    scheduled_timezone: z.string().min(1, 'Pick a time zone').max(64),
  }),
], { error: 'Choose to send now or at a time' });

const GiftForm = z.object({
  gift_card_enabled: z.enum(['on', '']).default(''),
  product_id: z.string().trim().max(200).default(''),
  amount: z.string().trim().default(''),
});

const NOTICES: Record<string, string> = {
  recipients: 'The recipients are saved.',
  gift: 'The gift settings are saved.',
};

interface LaunchState {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  error?: string | undefined;
  notice?: string | undefined;
  confirm?: Confirmation;
  gift?: Record<string, string>;
  giftErrors?: Record<string, string>;
}

async function launchPage(services: ServiceContext, account: Account, campaign: Campaign, state: LaunchState = {}, status?: number): Promise<PageResult> {
  const view = await campaignView(services, campaign);
  const gift = campaign.gift_card ? (JSON.parse(campaign.gift_card) as { product_id: string; amount: number }) : null;
  const giftValues = state.gift ?? { gift_card_enabled: campaign.gift_card_enabled ? 'on' : '', product_id: gift?.product_id ?? '', amount: gift ? String(gift.amount) : '' };
  const products = campaign.status === 'draft' ? await listProducts(services, account) : [];
  const values = { when: 'now', scheduled_at: '', scheduled_timezone: campaign.scheduled_timezone ?? 'UTC', ...state.values };
  return page(
    {
      title: `Campaign “${campaign.campaign_name}”: schedule or send`,
      view: 'campaign-launch',
      styles: ['campaigns.css'],
      steps: stepsOf(campaign.id, 'launch'),
      campaign: {
        id: campaign.id,
        name: campaign.campaign_name,
        from: campaign.from_name ? `${campaign.from_name} <${campaign.from_email ?? ''}>` : (campaign.from_email ?? ''),
        ecards: view.ecards.length,
        recipients: view.counts.pending,
        draft: campaign.status === 'draft',
        gift: campaign.gift_card_enabled && gift ? `${gift.amount} (${gift.product_id})` : '',
      },
      notice: state.notice,
      error: state.error,
      errors: state.errors ?? {},
      values,
      later: values.when === 'later',
      // "In each recipient's zone" first, then every IANA zone.
      zones: [
        { value: RECIPIENT_ZONE, text: 'In each recipient’s zone', selected: values.scheduled_timezone === RECIPIENT_ZONE },
        ...zoneOptions(values.scheduled_timezone === RECIPIENT_ZONE ? null : values.scheduled_timezone),
      ],
      gift: giftValues,
      giftOn: giftValues.gift_card_enabled === 'on',
      giftErrors: state.giftErrors ?? {},
      products: products.map((p) => ({ value: p.product_id, label: `${p.brand} · ${p.name}${p.denomination_cents !== null ? ` (${(p.denomination_cents / 100).toFixed(2)} ${p.currency})` : ''}`, selected: p.product_id === giftValues.product_id })),
      confirm: state.confirm,
    },
    status,
  );
}

/** A draft, or a scheduled campaign (a reschedule); anything else is shown on its own page. */
async function launchable(services: ServiceContext, accountId: number, id: number): Promise<Campaign | null> {
  const campaign = await findCampaign(services, accountId, id);
  return campaign.status === 'draft' || campaign.status === 'scheduled' ? campaign : null;
}

/** Where a service refusal of the launch shows: beside the time, or above the form. */
function placeRefusal(err: unknown): { errors?: Record<string, string>; error?: string; status: number } {
  const { message, status } = refusal(err);
  const code = err instanceof ApiError ? err.code : '';
  if (code === 'scheduled_at_past' || code === 'scheduled_at_too_far') return { errors: { scheduled_at: message }, status };
  if (err instanceof ApiError && /scheduled_timezone/.test(message)) return { errors: { scheduled_timezone: message }, status };
  if (err instanceof ApiError && /scheduled_at/.test(message) && status === 400) return { errors: { scheduled_at: message }, status };
  const messages = err instanceof ApiError && Array.isArray(err.messages) && err.messages.length > 1 ? err.messages.join('; ') : message;
  return { error: messages, status };
}

export const campaignLaunchRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/launch',
    params: CampaignIdParams,
    async handler({ params }, { services, account, koa }) {
      const campaign = await launchable(services, account.id, params.id);
      if (!campaign) return seeOther(campaignPath(params.id));
      return launchPage(services, account, campaign, { notice: NOTICES[String(koa.query.done)] });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/gift',
    audit: 'campaigns.set_gift',
    params: CampaignIdParams,
    async handler({ params, form }, { services, account }) {
      const campaign = await findCampaign(services, account.id, params.id);
      const typed = GiftForm.parse({ gift_card_enabled: form.gift_card_enabled === 'on' ? 'on' : '', product_id: form.product_id ?? '', amount: form.amount ?? '' });
      const on = typed.gift_card_enabled === 'on';
      const giftErrors: Record<string, string> = {};
      const amount = Number(typed.amount);
      if (on && !typed.product_id) giftErrors.product_id = 'Pick a gift card';
      if (on && (typed.amount === '' || !Number.isFinite(amount) || amount <= 0 || amount > 100_000)) giftErrors.amount = 'Enter an amount such as 25 or 12.50';
      if (Object.keys(giftErrors).length) return launchPage(services, account, campaign, { gift: typed, giftErrors }, 400);
      try {
        await saveCampaign(services, account.id, campaign.id, on ? { gift_card_enabled: true, gift_card: { product_id: typed.product_id, amount } } : { gift_card_enabled: false, gift_card: null });
      } catch (err) {
        const { message, status } = refusal(err);
        return launchPage(services, account, campaign, { gift: typed, giftErrors: { amount: message } }, status);
      }
      return seeOther(`${campaignPath(campaign.id, 'launch')}?done=gift`);
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'campaigns', level: 'manage' },
    path: '/campaigns/:id/launch',
    audit: 'campaigns.launch',
    params: CampaignIdParams,
    async handler({ params, form }, context) {
      const { services, account } = context;
      const campaign = await launchable(services, account.id, params.id);
      if (!campaign) return seeOther(campaignPath(params.id));
      const values = { when: form.when ?? '', scheduled_at: form.scheduled_at ?? '', scheduled_timezone: form.scheduled_timezone ?? '' };
      const parsed = LaunchForm.safeParse(values);
      if (!parsed.success) return launchPage(services, account, campaign, { values, errors: fieldErrors(parsed.error) }, 400);
      const launch = parsed.data;
      let run: (token: string | undefined) => Promise<Campaign>;
      if (launch.when === 'now') {
        run = (token) => sendCampaign(services, account.id, campaign.id, token);
      } else if (launch.scheduled_timezone === RECIPIENT_ZONE) {
        let wall: ReturnType<typeof parseWallClock>;
        try {
          wall = parseWallClock(launch.scheduled_at);
        } catch (err) {
          const placed = placeRefusal(err);
          return launchPage(services, account, campaign, { values, ...placed }, placed.status);
        }
        run = (token) => scheduleCampaign(services, account.id, campaign.id, { wall: wall.wall, wallText: wall.text, timeZone: RECIPIENT_ZONE, token });
      } else {
        let timeZone: string;
        let at: Date;
        try {
          timeZone = canonicalTimeZone(launch.scheduled_timezone);
          at = parseScheduledAt(launch.scheduled_at, timeZone);
        } catch (err) {
          const placed = placeRefusal(err);
          return launchPage(services, account, campaign, { values, ...placed }, placed.status);
        }
        run = (token) => scheduleCampaign(services, account.id, campaign.id, { at, timeZone, token });
      }
      const gate = { purpose: 'gc_campaign_send' as const, resourceId: campaign.id, action: `Start the gift-card campaign “${campaign.campaign_name}”`, back: campaignPath(campaign.id, 'launch') };
      try {
        const result = await withInlineToken(context, form, gate, run);
        if ('confirm' in result) return launchPage(services, account, campaign, { values, confirm: result.confirm }, 409);
        return seeOther(`${campaignPath(campaign.id)}?done=${result.done.status === 'scheduled' ? 'scheduled' : 'sending'}`);
      } catch (err) {
        const placed = placeRefusal(err);
        return launchPage(services, account, await campaign.reload(), { values, ...placed }, placed.status);
      }
    },
  }),
];
