// Campaign endpoints: list, findOne, save, saveCampaignEcards, saveRecipients, uploadCsv, recipients, schedule,
// send, unschedule, cancel, updateLocale, delete (console only).
import { z } from 'zod';
import { consoleOnly } from '../../lib/errors.ts';
import { findCampaign, listCampaigns, saveCampaign, updateLocale } from '../../services/campaigns/campaigns.ts';
import { parseRecipientsCsv } from '../../services/campaigns/csv.ts';
import { saveCampaignEcards } from '../../services/campaigns/ecards.ts';
import { cancelCampaign, scheduleCampaign, sendCampaign, unscheduleCampaign } from '../../services/campaigns/moves.ts';
import { listRecipients, saveRecipients } from '../../services/campaigns/recipients.ts';
import { canonicalTimeZone, parseScheduledAt, parseWallClock } from '../../services/campaigns/schedule-time.ts';
import { campaignView, campaignViews } from '../../services/campaigns/view.ts';
import { defineRoute } from '../http/route.ts';
import { pageMeta } from '../schema-helpers.ts';
import { seesDirectory } from '../scopes.ts';
import { presentCampaign, presentRecipient } from './present.ts';
import {
  Campaign,
  CampaignIdBody,
  CampaignIdParams,
  CampaignList,
  CsvUpload,
  DeleteCampaignBody,
  ListCampaignsQuery,
  PageMeta,
  RecipientList,
  RecipientsQuery,
  SaveCampaignBody,
  SaveCampaignEcardsBody,
  SaveRecipientsBody,
  RECIPIENT_ZONE,
  ScheduleBody,
  SendBody,
  UpdateLocaleBody,
  UploadCsvBody,
} from './schema.ts';

const tags = ['campaigns'];
const view = { area: 'campaigns', level: 'view' } as const;
const manage = { area: 'campaigns', level: 'manage' } as const;
const MB = 1024 * 1024;

export const campaignRoutes = [
  defineRoute({
    method: 'get',
    path: '/campaign/list',
    summary: 'Campaigns of the account, newest first, paged; `status` filters (absent: all)',
    tags,
    access: view,
    query: ListCampaignsQuery,
    response: CampaignList,
    meta: PageMeta,
    async handler({ query }, { services, caller }) {
      const { rows, count } = await listCampaigns(services, caller.account.id, query);
      return { data: (await campaignViews(services, rows)).map(presentCampaign), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/campaign/findOne/id/:id',
    summary: 'One campaign with its counts, eCards and schedule',
    tags,
    access: view,
    params: CampaignIdParams,
    response: Campaign,
    async handler({ params }, { services, caller }) {
      return presentCampaign(await campaignView(services, await findCampaign(services, caller.account.id, params.id)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaign/save',
    audit: 'campaigns.save',
    summary: 'Creates a draft (no id; campaign_name required) or edits a draft’s fields that are sent',
    tags,
    access: manage,
    body: SaveCampaignBody,
    response: Campaign,
    async handler({ body }, { services, caller }) {
      const { id, ...input } = body.campaign;
      return presentCampaign(await campaignView(services, await saveCampaign(services, caller.account.id, id, input)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaign/saveCampaignEcards',
    audit: 'campaigns.save_ecards',
    summary: 'Sets the draft’s eCards: copies of the account’s enabled eCards, so later edits of those change nothing',
    tags,
    access: manage,
    body: SaveCampaignEcardsBody,
    response: Campaign,
    async handler({ body }, { services, caller }) {
      return presentCampaign(await campaignView(services, await saveCampaignEcards(services, caller.account.id, body.campaignid, body.ecardIds)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaign/saveRecipients',
    audit: 'campaigns.save_recipients',
    summary: 'Sets (or with append, adds) the draft’s recipients: directory members and CSV rows, deduplicated by email, at most 100,000',
    tags,
    access: manage,
    body: SaveRecipientsBody,
    bodyLimitBytes: 32 * MB,
    response: Campaign,
    async handler({ body }, { services, caller }) {
      const saved = await saveRecipients(services, caller.account.id, body.campaignid, {
        directoryMemberIds: body.directoryMemberIds,
        csvRecipients: body.csvRecipients,
        append: body.append,
      });
      return presentCampaign(await campaignView(services, saved));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaign/uploadCsv',
    audit: 'campaigns.upload_recipients',
    summary: 'Parses CSV text into rows for saveRecipients, with each bad row’s line and reason; saves nothing',
    tags,
    access: manage,
    body: UploadCsvBody,
    bodyLimitBytes: 16 * MB,
    response: CsvUpload,
    async handler({ body }) {
      return parseRecipientsCsv(body.csvContent);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/campaign/recipients',
    summary: 'The campaign’s recipients with their states, paged (perPage up to 500)',
    tags,
    access: view,
    query: RecipientsQuery,
    response: RecipientList,
    meta: PageMeta,
    async handler({ query }, { services, caller }) {
      const { rows, count } = await listRecipients(services, caller.account.id, query.campaignid, query);
      const seesMembers = seesDirectory(caller);
      return { data: rows.map((r) => presentRecipient(r.recipient, r.opened, seesMembers)), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaign/schedule',
    audit: 'campaigns.schedule',
    summary: 'Schedules (or reschedules) the campaign at one instant, or with scheduled_timezone "recipient" at a wall-clock time in each recipient’s zone (in waves); quota is reserved for each send time’s month',
    tags,
    access: manage,
    body: ScheduleBody,
    response: Campaign,
    async handler({ body }, { services, caller }) {
      const token = body.gc_confirmation_token;
      if (body.scheduled_timezone === RECIPIENT_ZONE) {
        const { wall, text } = parseWallClock(body.scheduled_at);
        const campaign = await scheduleCampaign(services, caller.account.id, body.campaignid, { wall, wallText: text, timeZone: RECIPIENT_ZONE, token });
        return presentCampaign(await campaignView(services, campaign));
      }
      const timeZone = canonicalTimeZone(body.scheduled_timezone);
      const at = parseScheduledAt(body.scheduled_at, timeZone);
      const campaign = await scheduleCampaign(services, caller.account.id, body.campaignid, { at, timeZone, token });
      return presentCampaign(await campaignView(services, campaign));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaign/send',
    audit: 'campaigns.send',
    summary: 'Sends the campaign to all its recipients now',
    tags,
    access: manage,
    body: SendBody,
    response: Campaign,
    async handler({ body }, { services, caller }) {
      return presentCampaign(await campaignView(services, await sendCampaign(services, caller.account.id, body.campaignid, body.gc_confirmation_token)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaign/unschedule',
    audit: 'campaigns.unschedule',
    summary: 'Takes a scheduled campaign back to draft; its quota is released',
    tags,
    access: manage,
    body: CampaignIdBody,
    response: Campaign,
    async handler({ body }, { services, caller }) {
      return presentCampaign(await campaignView(services, await unscheduleCampaign(services, caller.account.id, body.campaignid)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaign/cancel',
    audit: 'campaigns.cancel',
    summary: 'Cancels a scheduled or sending campaign: recipients not yet claimed end canceled; claimed ones finish',
    tags,
    access: manage,
    body: CampaignIdBody,
    response: Campaign,
    async handler({ body }, { services, caller }) {
      return presentCampaign(await campaignView(services, await cancelCampaign(services, caller.account.id, body.campaignid)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaign/updateLocale',
    audit: 'campaigns.set_locale',
    summary: 'Sets the draft’s render language',
    tags,
    access: manage,
    body: UpdateLocaleBody,
    response: Campaign,
    async handler({ body }, { services, caller }) {
      return presentCampaign(await campaignView(services, await updateLocale(services, caller.account.id, body.campaignid, body.locale)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaign/delete',
    audit: 'campaigns.delete',
    summary: 'Always refused for a key (403 console_only): deleting a campaign is confirmed in the console',
    tags,
    access: manage,
    body: DeleteCampaignBody,
    response: z.null(),
    async handler({ body }, { services, caller }) {
      await findCampaign(services, caller.account.id, body.id);
      throw consoleOnly('Deleting a campaign is confirmed in the console, not with an API key', { extra: { requires_otp: true } });
    },
  }),
];
