// What every tab of a widget's page shares: the widget (404 when not the account's), the page's title and tabs,
// its stylesheet, and the `?done=` notices of the tabs' forms.
import type { Context } from 'koa';
import type { Widget } from '../../../models/Widget.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { findWidget } from '../../../services/widgets/admin/widgets.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import type { PageData } from '../kit/render.ts';

export const WIDGETS = `${CONSOLE_PREFIX}/widgets`;
export const widgetPath = (id: number, tab = '') => `${WIDGETS}/${id}${tab ? `/${tab}` : ''}`;

const NOTICES: Record<string, string> = {
  created: 'The widget is created. Add eCards to it here.',
  copied: 'The widget is copied.',
  deleted: 'The widget is deleted with its eCards.',
  saved: 'Saved.',
  public_on: 'The widget is public: its hosted page and embed work for visitors.',
  public_off: 'The widget is private: visitors get a not-found page.',
  directory_on: 'Senders must now be in your directory.',
  directory_off: 'Senders no longer need to be in your directory.',
};
export const noticeOf = (koa: Context) => (typeof koa.query.done === 'string' ? NOTICES[koa.query.done] : undefined);

/** The account's widget (404 for another account's or a missing one). */
export const widgetOf = (services: ServiceContext, accountId: number, id: number): Promise<Widget> => findWidget(services, accountId, id);

/** A tab's page: the widget's name as its title, the tabs partial's values, the widget pages' stylesheet. */
export function tabPage(widget: Widget, tab: string, view: string, data: Partial<PageData> = {}): PageData {
  return {
    title: widget.name,
    view,
    tab,
    widget: { id: widget.id, name: widget.name, vanity_id: widget.vanity_id, public: Boolean(widget.public_share_enabled), campaign: Boolean(widget.is_campaign) },
    ...data,
    styles: ['widget-pages.css', ...(data.styles ?? [])],
  };
}
