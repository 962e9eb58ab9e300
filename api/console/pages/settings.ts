// The console's fields and suppressions page: custom date fields for members (list, add, remove) and the
// suppression list (addresses and blocked domains). The same services as the console API's settings group.
import Router from '@koa/router';
import type { Context } from 'koa';
import { activeCustomFields, addCustomField, deactivateCustomField } from '../../../services/directory/custom-fields.ts';
import { addSuppression, listSuppressions, removeSuppression, validSuppressionValue } from '../../../services/sends/rules.ts';
import type { ApiServices, ApiState } from '../../context.ts';
import { parseInput } from '../../validation.ts';
import { CustomFieldBody, CustomFieldParams, SuppressionBody, SuppressionsQuery } from '../settings/schema.ts';
import { paging, renderPage } from './render.ts';
import { CONSOLE_PREFIX, filledQuery, pageForm, seeOther, signedIn } from './router.ts';

const SETTINGS = `${CONSOLE_PREFIX}/settings`;

const NOTICES: Record<string, string> = {
  'field-added': 'The custom field is added.',
  'field-removed': 'The custom field is removed; members keep their values.',
  suppressed: 'Sends to it are refused from now on.',
  'already-suppressed': 'It was already blocked.',
  lifted: 'The block is lifted.',
  'not-suppressed': 'It was not blocked.',
};

const done = (ctx: Context, what: string) => seeOther(ctx, `${SETTINGS}?done=${what}`);

/** `{ email }` or `{ domain }` from the form's kind and value fields. */
function suppressionOf(form: Record<string, string>) {
  const body = parseInput(SuppressionBody, form.kind === 'domain' ? { domain: form.value || undefined } : { email: form.value || undefined }, 'body');
  const kind = body.email !== undefined ? ('email' as const) : ('domain' as const);
  return { kind, value: validSuppressionValue(kind, (body.email ?? body.domain)!) };
}

export function consoleSettingsPagesRouter(services: ApiServices): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: CONSOLE_PREFIX });
  router.get(
    '/settings',
    signedIn(services, async (ctx, page) => {
      const query = parseInput(SuppressionsQuery, filledQuery(ctx.query), 'query');
      const [fields, suppressions] = await Promise.all([activeCustomFields(services.models, page.account.id), listSuppressions(services.models, page.account.id, query)]);
      const link = (n: number) => `${SETTINGS}?${new URLSearchParams({ ...(query.kind ? { kind: query.kind } : {}), perPage: String(query.perPage), page: String(n) }).toString()}`;
      renderPage(ctx, {
        title: 'Fields and suppressions',
        view: 'settings',
        ...page,
        notice: typeof ctx.query.done === 'string' ? NOTICES[ctx.query.done] : undefined,
        fields: fields.map((f) => ({ key: f.field_key, label: f.label, type: f.field_type, required: Boolean(f.required) })),
        suppressions: suppressions.rows.map((r) => ({ kind: r.kind, value: r.value, created_at: r.created_at.toISOString() })),
        ...paging(query.page, query.perPage, suppressions.count, link),
      });
    }),
  );
  router.post(
    '/settings/fields',
    signedIn(services, async (ctx, page) => {
      const form = await pageForm(services, ctx, page);
      const body = parseInput(CustomFieldBody, { key: form.key || undefined, label: form.label || undefined, required: form.required === 'on' }, 'body');
      await addCustomField(services.models, { accountId: page.account.id, key: body.key, label: body.label, required: body.required });
      done(ctx, 'field-added');
    }),
  );
  router.post(
    '/settings/fields/:key/remove',
    signedIn(services, async (ctx, page) => {
      await pageForm(services, ctx, page);
      const params = parseInput(CustomFieldParams, ctx.params, 'path');
      await deactivateCustomField(services.models, page.account.id, params.key);
      done(ctx, 'field-removed');
    }),
  );
  router.post(
    '/settings/suppressions',
    signedIn(services, async (ctx, page) => {
      const { kind, value } = suppressionOf(await pageForm(services, ctx, page));
      done(ctx, (await addSuppression(services, page.account.id, kind, value)) ? 'suppressed' : 'already-suppressed');
    }),
  );
  router.post(
    '/settings/suppressions/remove',
    signedIn(services, async (ctx, page) => {
      const { kind, value } = suppressionOf(await pageForm(services, ctx, page));
      done(ctx, (await removeSuppression(services.models, page.account.id, kind, value)) ? 'lifted' : 'not-suppressed');
    }),
  );
  return router;
}
