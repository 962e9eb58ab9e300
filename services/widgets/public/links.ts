// Where a card's people can send one themselves: the page of the widget that sent it, when its owner made it public
// ("Send one back" on the card page, "Send another" in read receipts). A private or campaign widget gives none.
import type { ServiceContext } from '../../context.ts';
import type { Transaction } from 'sequelize';
import { isPublicWidget } from './public.ts';

/** `${PUBLIC_BASE_URL}/w/<vanity>`: a widget's public page. */
export const widgetPageUrl = (publicBaseUrl: string, vanityId: string) => `${publicBaseUrl.replace(/\/+$/, '')}/w/${encodeURIComponent(vanityId)}`;

/** The public page of a public widget; null otherwise. */
export async function publicWidgetUrl(ctx: Pick<ServiceContext, 'models'>, publicBaseUrl: string, widgetId: number, transaction?: Transaction): Promise<string | null> {
  const { models } = ctx;
  const widget = await models.Widget.findByPk(widgetId, { attributes: ['vanity_id', 'public_share_enabled', 'is_campaign'], ...(transaction ? { transaction } : {}) });
  if (!widget || !isPublicWidget(widget)) return null;
  return widgetPageUrl(publicBaseUrl, widget.vanity_id);
}
