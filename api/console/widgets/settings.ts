// The Settings tab: name and sender rules (verification, session length, caps, domain lists) saved through the key
// API's save; the directory rule on its own form (turning it off asks the owner inline: `widget_dir_sender_off`);
// and delete (an unused widget at once, one in use after an inline step-up and `widget_delete` token).
import type { Widget } from '../../../models/Widget.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { inUse, widgetUsage } from '../../../services/usage.ts';
import { deleteWidgets, saveWidget } from '../../../services/widgets/admin/widgets.ts';
import { definePage, page, seeOther, type AnyRoute } from '../../http/route.ts';
import { WidgetIdParams } from '../../widgets/schema.ts';
import { withInlineToken, type Confirmation } from '../kit/inline-token.ts';
import { fieldRefusal, formValues, settingsInput, type Form } from './form.ts';
import { errorView, type FieldErrors } from '../kit/field-errors.ts';
import { noticeOf, tabPage, WIDGETS, widgetOf, widgetPath } from './page.ts';

function settingsPage(widget: Widget, extra: { notice?: string | undefined; errors?: FieldErrors; typed?: Form }) {
  return tabPage(widget, 'settings', 'widget-settings', {
    notice: extra.notice,
    ...errorView(extra.errors),
    values: formValues(widget, extra.typed),
    directory: Boolean(widget.dir_sender_must_be_in_directory),
  });
}

/** What deleting the widget takes with it: its eCards, and what uses it (campaigns, automations, sends). */
async function impactOf(services: ServiceContext, widget: Widget) {
  const usage = (await widgetUsage(services.hooks.usage, services.models, widget.account_id, [widget.id])).get(widget.id)!;
  const ecards = await services.models.Ecard.count({ where: { account_id: widget.account_id, widget_id: widget.id } });
  return { ecards, ...usage, inUse: inUse(usage) };
}

async function deletePage(services: ServiceContext, widget: Widget, confirmation?: Confirmation) {
  return page(
    tabPage(widget, 'settings', 'widget-delete', { impact: await impactOf(services, widget), message: confirmation?.message }),
    confirmation ? 409 : 200,
  );
}

export const widgetSettingsRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'widgets', level: 'view' },
    path: '/widgets/:id/settings',
    params: WidgetIdParams,
    async handler({ params }, { services, account, koa }) {
      return page(settingsPage(await widgetOf(services, account.id, params.id), { notice: noticeOf(koa) }));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: '/widgets/:id/settings',
    audit: 'widgets.save',
    params: WidgetIdParams,
    async handler({ params, form }, { services, account }) {
      const widget = await widgetOf(services, account.id, params.id);
      try {
        await saveWidget(services, account.id, { id: widget.id, widget: settingsInput(widget, form), prices: undefined, token: undefined });
      } catch (err) {
        const { errors, status } = fieldRefusal(err);
        return page(settingsPage(widget, { errors, typed: form }), status);
      }
      return seeOther(`${widgetPath(widget.id, 'settings')}?done=saved`);
    },
  }),

  // The directory rule: on at once; off through the inline confirmation (GET shows it again after a step-up).
  definePage({
    method: 'get',
    role: { area: 'widgets', level: 'manage' },
    path: '/widgets/:id/directory-off',
    params: WidgetIdParams,
    async handler({ params }, { services, account }) {
      const widget = await widgetOf(services, account.id, params.id);
      return page(tabPage(widget, 'settings', 'widget-directory-off', {}));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: '/widgets/:id/directory',
    audit: 'widgets.directory_rule',
    params: WidgetIdParams,
    async handler({ params, form }, context) {
      const { services, account } = context;
      const widget = await widgetOf(services, account.id, params.id);
      const on = form.rule === 'on';
      const save = (token: string | undefined) =>
        saveWidget(services, account.id, { id: widget.id, widget: { dir_sender_must_be_in_directory: on }, prices: undefined, token });
      if (on) {
        await save(undefined);
        return seeOther(`${widgetPath(widget.id, 'settings')}?done=directory_on`);
      }
      const gate = { purpose: 'widget_dir_sender_off' as const, resourceId: widget.id, action: `Turn off the directory rule of the widget “${widget.name}”`, back: widgetPath(widget.id, 'directory-off') };
      const result = await withInlineToken(context, form, gate, save);
      if ('confirm' in result) return page(tabPage(widget, 'settings', 'widget-directory-off', { message: result.confirm.message }), 409);
      return seeOther(`${widgetPath(widget.id, 'settings')}?done=directory_off`);
    },
  }),

  definePage({
    method: 'get',
    role: { area: 'widgets', level: 'manage' },
    path: '/widgets/:id/delete',
    params: WidgetIdParams,
    async handler({ params }, { services, account }) {
      return deletePage(services, await widgetOf(services, account.id, params.id));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: '/widgets/:id/delete',
    audit: 'widgets.delete',
    params: WidgetIdParams,
    async handler({ params, form }, context) {
      const { services, account } = context;
      const widget = await widgetOf(services, account.id, params.id);
      const gate = { purpose: 'widget_delete' as const, resourceId: widget.id, action: `Delete the widget “${widget.name}”`, back: widgetPath(widget.id, 'delete') };
      const result = await withInlineToken(context, form, gate, (token) => deleteWidgets(services, account.id, [widget.id], token));
      if ('confirm' in result) return deletePage(services, widget, result.confirm);
      return seeOther(`${WIDGETS}?done=deleted`);
    },
  }),
];
