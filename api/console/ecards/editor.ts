// The console's eCard editor: a new or existing eCard, every field, saved through the key API's schema and service
// (one form, multipart when it carries a cover file); a refused save shows the form again with what was typed, each
// message at its field, and a chosen cover kept as a pending upload (stored, its URL in the image URL field).
import { z } from 'zod';
import { ApiError } from '../../../lib/errors.ts';
import type { Ecard } from '../../../models/Ecard.ts';
import type { Widget } from '../../../models/Widget.ts';
import { listBrands } from '../../../services/brands/brands.ts';
import { findEcard, saveEcard } from '../../../services/ecards/records.ts';
import { MAX_IMAGE_BYTES, uploadImage } from '../../../services/media.ts';
import { findWidget } from '../../../services/widgets/admin/widgets.ts';
import { thumbImageOf } from '../../../services/widgets/public/thumbs.ts';
import { EcardIdParams } from '../../ecards/schema.ts';
import { definePage, page, type PageResult, type SessionContext, seeOther } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { numericId, resource } from '../../schema-helpers.ts';
import { ECARD_LABELS, ecardValues, editorChoices, type EditorValues, formValues, newEcardValues } from './editor-view.ts';
import { errorView, type FieldErrors, fieldErrorsOf } from '../kit/field-errors.ts';
import { ECARD_FORM_LIMIT, parseEcardForm, readEcardForm } from './form.ts';

const BASE = `${CONSOLE_PREFIX}/ecards`;
const NOTICES: Record<string, string> = {
  saved: 'The eCard is saved.',
  'test-sent': 'A test email is on its way: find it in your inbox (or, in sandbox mode, in the sandbox outbox).',
};

type Context = SessionContext & { page: { me: { owner_email: string } } };

/** The editor's page: the form with `values`, the eCard's previews and test form when it is saved. */
async function editorPage(
  context: Context,
  shown: { widget: Widget; ecard?: Ecard | undefined; values: EditorValues; errors?: FieldErrors; keptCover?: string; status?: number },
): Promise<PageResult> {
  const { services, account, koa } = context;
  const { rows: brands } = await listBrands(services, account.id, { page: 1, perPage: 100, sortBy: 'name', sortOrder: 'asc' });
  const { ecard, widget, values } = shown;
  const coverUrl = shown.keptCover ?? (ecard ? thumbImageOf(services.config.publicBaseUrl, ecard) : null);
  return page(
    {
      title: ecard ? `Edit eCard: ${ecard.name}` : 'New eCard',
      view: 'ecard-editor',
      styles: ['trix.css', 'ecard-editor.css'],
      scripts: ['trix.js', 'ecard-editor.js'],
      styleNonce: true,
      notice: NOTICES[String(koa.query.done)],
      ...errorView(shown.errors),
      keptCover: shown.keptCover !== undefined,
      // The browser refuses a larger cover before the upload, in the server's words (web/console/ecard-cover.js).
      coverLimit: { bytes: MAX_IMAGE_BYTES, megabytes: MAX_IMAGE_BYTES / 1024 / 1024 },
      ecard: ecard ? { id: ecard.id, name: ecard.name } : undefined,
      widget: { id: widget.id, name: widget.name },
      action: ecard ? `${BASE}/${ecard.id}` : BASE,
      previewId: ecard?.id ?? 0,
      values,
      coverUrl,
      ownerEmail: context.page.me.owner_email,
      ...editorChoices(values, brands, widget.merge_tag_defaults),
    },
    shown.status,
  );
}

/** Saves the posted form (a new eCard when `id` is undefined); a refused field shows the form again (its status). */
async function save(context: Context, form: Record<string, string>, id: number | undefined, widget: Widget, ecard?: Ecard): Promise<PageResult> {
  const { services, account } = context;
  try {
    const { id: _id, widgetid, ...fields } = parseEcardForm({ ...form, id: id === undefined ? '' : String(id), widgetid: id === undefined ? String(widget.id) : '' });
    const image = form.ecardimg || undefined;
    // A chosen cover file replaces the artwork: the URL field (the old cover's URL) is not sent beside it.
    if (image !== undefined) delete fields.self_hosted_url;
    const saved = await saveEcard(services, account.id, { id, widgetid, fields, image });
    return seeOther(`${BASE}/${saved.id}?done=saved`);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status === 404 || err.status >= 500) throw err;
    const errors = fieldErrorsOf(err, ECARD_LABELS);
    const values = formValues(form);
    const keptCover = form.ecardimg && !errors.fields.ecardimg ? await keepCover(context, form.ecardimg, errors) : undefined;
    if (keptCover) values.self_hosted_url = keptCover;
    return editorPage(context, { widget, ecard, values, errors, ...(keptCover ? { keptCover } : {}), status: err.status });
  }
}

/**
 * A chosen cover of a refused save, stored now as a pending upload: its URL goes into the image URL field, so the
 * next save (with or without JavaScript) keeps it without choosing the file again. A file the store refuses shows
 * its refusal at the cover instead. (An upload never saved stays unused in the account's media.)
 */
async function keepCover(context: Context, image: string, errors: FieldErrors): Promise<string | undefined> {
  try {
    return await uploadImage(context.services, context.account.id, image, 'ecardimg');
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    const refused = fieldErrorsOf(err, ECARD_LABELS);
    Object.assign(errors.fields, { ...refused.fields, ...errors.fields });
    errors.general.push(...refused.general);
    return undefined;
  }
}

const NewQuery = z.object({ widgetid: resource('widget', numericId()) });

export const ecardEditorPageRoutes = [
  definePage({
    method: 'get',
    role: { area: 'ecards', level: 'manage' },
    path: '/ecards/new',
    query: NewQuery,
    async handler({ query }, context) {
      return editorPage(context, { widget: await findWidget(context.services, context.account.id, query.widgetid), values: newEcardValues() });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'ecards', level: 'view' },
    path: '/ecards/:id',
    params: EcardIdParams,
    async handler({ params }, context) {
      const { config } = context.services;
      const ecard = await findEcard(context.services, context.account.id, params.id);
      const widget = await findWidget(context.services, context.account.id, ecard.widget_id);
      return editorPage(context, { widget, ecard, values: ecardValues(ecard, config.publicBaseUrl) });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'ecards', level: 'manage' },
    path: '/ecards',
    audit: 'ecards.save',
    readBody: (koa, limit) => readEcardForm(koa, limit),
    bodyLimitBytes: ECARD_FORM_LIMIT,
    async handler({ form }, context) {
      // The owning widget first: another account's (or no) widget is 404, never a form shown again.
      const widgetId = Number(form.widgetid);
      const widget = await findWidget(context.services, context.account.id, Number.isSafeInteger(widgetId) && widgetId > 0 ? widgetId : 0);
      return save(context, form, undefined, widget);
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'ecards', level: 'manage' },
    path: '/ecards/:id',
    audit: 'ecards.save',
    params: EcardIdParams,
    readBody: (koa, limit) => readEcardForm(koa, limit),
    bodyLimitBytes: ECARD_FORM_LIMIT,
    async handler({ params, form }, context) {
      const ecard = await findEcard(context.services, context.account.id, params.id);
      return save(context, form, params.id, await findWidget(context.services, context.account.id, ecard.widget_id), ecard);
    },
  }),
];
