// The Customize tab: the display keys of wconfig and the style columns, saved through the key API's save; beside
// them the live preview (an iframe of /preview/widget/:id; the form's Preview button, or the script on each change,
// posts the unsaved values to it).
import { displayOf } from '../../../services/widgets/public/display.ts';
import { saveWidget } from '../../../services/widgets/admin/widgets.ts';
import { definePage, page, seeOther, type AnyRoute } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { WidgetIdParams } from '../../widgets/schema.ts';
import type { Widget } from '../../../models/Widget.ts';
import { customizeInput, defaults, fieldRefusal, formValues, type Form } from './form.ts';
import { errorView, type FieldErrors } from '../kit/field-errors.ts';
import { noticeOf, tabPage, widgetOf, widgetPath } from './page.ts';

function customizePage(widget: Widget, extra: { notice?: string | undefined; errors?: FieldErrors; typed?: Form }) {
  const values = formValues(widget, extra.typed);
  const display = displayOf(widget.wconfig ?? {});
  return tabPage(widget, 'customize', 'widget-customize', {
    notice: extra.notice,
    ...errorView(extra.errors),
    scripts: ['widget-colours.js', 'widget-customize.js'],
    values,
    defaults,
    layouts: ['grid', 'masonry', 'inline'].map((v) => ({ value: v, selected: (values.layout || display.layout) === v })),
    themes: ['light', 'dark'].map((v) => ({ value: v, selected: (values.theme || display.theme) === v })),
    previewUrl: `${CONSOLE_PREFIX}/preview/widget/${widget.id}`,
  });
}

export const widgetCustomizeRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'widgets', level: 'view' },
    path: '/widgets/:id/customize',
    params: WidgetIdParams,
    async handler({ params }, { services, account, koa }) {
      return page(customizePage(await widgetOf(services, account.id, params.id), { notice: noticeOf(koa) }));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: '/widgets/:id/customize',
    audit: 'widgets.customize',
    params: WidgetIdParams,
    async handler({ params, form }, { services, account }) {
      const widget = await widgetOf(services, account.id, params.id);
      try {
        await saveWidget(services, account.id, { id: widget.id, widget: customizeInput(widget, form), prices: undefined, token: undefined });
      } catch (err) {
        const { errors, status } = fieldRefusal(err);
        return page(customizePage(widget, { errors, typed: form }), status);
      }
      return seeOther(`${widgetPath(widget.id, 'customize')}?done=saved`);
    },
  }),
];
