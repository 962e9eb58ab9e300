// What strangers may reach of a widget: a public widget (turned on by its owner, not a campaign's) and the eCards
// its gallery shows (enabled and inside their publish window). Unknown, private and campaign-backed widgets answer
// the same 404 on the loader, the page and the API, so nobody can probe which widgets exist. Each rule is here once;
// the gallery's has its query form beside the code form (test/sends/rules-agree.test.ts runs both on the same rows).
import type { ServiceContext } from '../../context.ts';
import { Op, type WhereOptions } from 'sequelize';
import { notFound } from '../../../lib/errors.ts';
import type { Ecard } from '../../../models/Ecard.ts';
import type { Widget } from '../../../models/Widget.ts';

export const WIDGET_NOT_FOUND = 'No public widget here';

/** The public widget with this vanity id (compared case-sensitively), else 404 alike for every reason. */
export async function findPublicWidget(ctx: Pick<ServiceContext, 'models'>, vanityId: string): Promise<Widget> {
  const { models } = ctx;
  const widget = typeof vanityId === 'string' && vanityId.length <= 32 ? await models.Widget.findOne({ where: { vanity_id: vanityId } }) : null;
  if (!widget || !isPublicWidget(widget)) throw notFound(WIDGET_NOT_FOUND);
  return widget;
}

/** Whether strangers may reach a widget: its owner turned it on, and it is not a campaign's. */
export const isPublicWidget = (widget: Pick<Widget, 'public_share_enabled' | 'is_campaign'>): boolean => widget.public_share_enabled && !widget.is_campaign;

/** The gallery's rule (also `get-ecards`'): not disabled, and published (`publish_on` ≤ now < `expire_on`, each open when null). */
export function visibleEcardsWhere(now: Date): WhereOptions<Ecard> {
  return {
    disabled: false,
    [Op.and]: [{ [Op.or]: [{ publish_on: null }, { publish_on: { [Op.lte]: now } }] }, { [Op.or]: [{ expire_on: null }, { expire_on: { [Op.gt]: now } }] }],
  };
}

/** The same rule for one eCard already read. */
export function isVisible(ecard: Pick<Ecard, 'disabled' | 'publish_on' | 'expire_on'>, now: Date): boolean {
  if (ecard.disabled) return false;
  if (ecard.publish_on && ecard.publish_on.getTime() > now.getTime()) return false;
  return !(ecard.expire_on && ecard.expire_on.getTime() <= now.getTime());
}
