// eCard endpoints: findOne, save, deleteEcards, copy, bulkUpdate, saveOrder, uploadMediaImage, preview, sendTest, search.
import { missingField } from '../../lib/errors.ts';
import {
  bulkUpdateEcards, copyEcard, deleteEcards, findEcard, readEcard, renderEcard, saveEcard, saveOrder, searchEcards, textsOf, type DateWindow,
} from '../../services/ecards/records.ts';
import { uploadImage } from '../../services/media.ts';
import { findWidget } from '../../services/widgets/admin/widgets.ts';
import { defineRoute } from '../http/route.ts';
import { pageMeta } from '../schema-helpers.ts';
import { Deleted } from '../widgets/schema.ts';
import { presentEcard } from './present.ts';
import {
  BulkUpdateBody, CopyEcardBody, DeleteEcardsBody, Ecard, ecardFieldSchemas, EcardIdParams, EcardList, Order, PageMeta, Preview,
  PreviewBody, SaveEcardBody, SaveOrderBody, SearchEcardsQuery, SendTestBody, SentTest, Updated, UploadedMedia, UploadMediaBody,
} from './schema.ts';
import { queueTestEmail } from '../../services/sends/email/test-email.ts';
import { inputError } from '../http/validation.ts';

const tags = ['ecards'];
const view = { area: 'ecards', level: 'view' } as const;
const manage = { area: 'ecards', level: 'manage' } as const;
const IMAGE_BODY_LIMIT = 8 * 1024 * 1024;

export const ecardRoutes = [
  defineRoute({
    method: 'get',
    path: '/ecard/findOne/id/:id',
    summary: 'The full configuration of one eCard',
    tags,
    access: view,
    params: EcardIdParams,
    response: Ecard,
    async handler({ params }, { services, caller }) {
      return presentEcard(await readEcard(services, caller.account.id, params.id), services.config.publicBaseUrl);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/ecard/save',
    audit: 'ecards.save',
    summary: 'Creates (no myEcard.id) or updates an eCard; details are sanitized, templates checked',
    tags,
    access: manage,
    body: SaveEcardBody,
    bodyLimitBytes: IMAGE_BODY_LIMIT,
    response: Ecard,
    async handler({ body }, { services, caller }) {
      const { id, widgetid, ...fields } = body.myEcard;
      const saved = await saveEcard(services, caller.account.id, { id, widgetid, fields, image: body.ecardimg });
      return presentEcard(saved, services.config.publicBaseUrl);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/ecard/deleteEcards',
    audit: 'ecards.delete',
    summary: 'Deletes eCards for good (all or nothing); an eCard with send history needs its otp_confirmation_token',
    tags,
    access: manage,
    body: DeleteEcardsBody,
    response: Deleted,
    async handler({ body }, { services, caller }) {
      return { deleted: await deleteEcards(services, caller.account.id, body.ecardids, body.otp_confirmation_token) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/ecard/copy',
    audit: 'ecards.copy',
    summary: 'Copies an eCard (design and image) into its widget or another',
    tags,
    access: manage,
    body: CopyEcardBody,
    response: Ecard,
    async handler({ body }, { services, caller }) {
      return presentEcard(await copyEcard(services, caller.account.id, body.ecardid, body.widgetid), services.config.publicBaseUrl);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/ecard/bulkUpdate',
    audit: 'ecards.bulk_update',
    summary: 'Sets one field on every eCard of a widget, or on a list of eCards',
    tags,
    access: manage,
    body: BulkUpdateBody,
    response: Updated,
    async handler({ body }, { services, caller }) {
      const parsed = ecardFieldSchemas[body.fieldName].safeParse(body.fieldValue, { reportInput: true });
      // Named as `fieldValue (<fieldName>)`, with the key within it where there is one (a colour of the settings).
      if (!parsed.success) throw inputError(parsed.error.issues.map((i) => ({ ...i, path: [`fieldValue (${body.fieldName})`, ...i.path] })), 'body');
      if (parsed.data === undefined) throw missingField('fieldValue is required');
      const updated = await bulkUpdateEcards(services, caller.account.id, body, body.fieldName, parsed.data);
      return { updated };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/ecard/saveOrder',
    audit: 'ecards.reorder',
    summary: 'Sets the display order of eCards in their widget (the ones not listed follow, in their order)',
    tags,
    access: manage,
    body: SaveOrderBody,
    response: Order,
    async handler({ body }, { services, caller }) {
      return saveOrder(services, caller.account.id, body.neworder);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/ecard/uploadMediaImage',
    audit: 'media.upload',
    summary: 'Hosts an image; its URL can be self_hosted_url or go inside details',
    tags,
    access: manage,
    body: UploadMediaBody,
    bodyLimitBytes: IMAGE_BODY_LIMIT,
    response: UploadedMedia,
    async handler({ body }, { services, caller }) {
      return { url: await uploadImage(services, caller.account.id, body.imageBase, 'imageBase') };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/ecard/preview',
    audit: { none: 'a preview renders; nothing changes' },
    summary: 'Renders an eCard with merge tags and overrides; sends nothing',
    tags,
    access: view,
    body: PreviewBody,
    response: Preview,
    async handler({ body }, { services, caller }) {
      const ecard = await findEcard(services, caller.account.id, body.id);
      // As sent: empty tags take the widget's fallbacks.
      const { merge_tag_defaults: fallbacks } = await findWidget(services, caller.account.id, ecard.widget_id);
      return renderEcard(textsOf(ecard), { mergeTags: body.mergeTags ?? {}, overrideProps: body.overrideProps ?? {}, trialMode: body.trialMode ?? false, fallbacks });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/ecard/sendTest',
    audit: 'ecards.send_test',
    summary: 'Emails the eCard as it is sent now (sample merge values, "[Preview]" subject) to the owner or `email`; no quota, no webhook (sandbox: the outbox)',
    tags,
    access: manage,
    body: SendTestBody,
    response: SentTest,
    async handler({ body }, { services, caller }) {
      return queueTestEmail(services, caller.account, body.id, body.email);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/ecard/search',
    summary: 'eCard designs, paged and filtered (beta); campaign widgets are excluded unless includeCampaign',
    tags,
    access: view,
    query: SearchEcardsQuery,
    response: EcardList,
    meta: PageMeta,
    async handler({ query }, { services, caller }) {
      const { rows, count } = await searchEcards(services, caller.account.id, services.now(), { ...query, filterByDate: query.filterByDate as DateWindow });
      return { data: rows.map((e) => presentEcard(e, services.config.publicBaseUrl)), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
];
