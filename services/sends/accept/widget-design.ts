// The widget whose details and merge-tag fallbacks go into an eCard's snapshot, read for many eCards in a few
// statements (a campaign or an automation prepares many sends of a few eCards).
import type { ServiceContext } from '../../context.ts';
import type { Attributes, Transaction } from 'sequelize';
import type { Ecard } from '../../../models/Ecard.ts';
import type { Widget } from '../../../models/Widget.ts';
import { widgetDesignOf, type WidgetDesign, type WidgetDesignSource } from './snapshot.ts';

/** An eCard as far as its widget design goes. */
type DesignedEcard = Pick<Attributes<Ecard>, 'id' | 'account_id' | 'widget_id' | 'source_ecard_id'>;
/** A widget already read, as far as its design goes. */
type KnownWidget = WidgetDesignSource & Pick<Widget, 'id' | 'is_campaign'>;

/**
 * Each eCard's widget design, by eCard id: its own widget's, except for a campaign's copy, whose widget (made by the
 * campaign, never edited) has none: that copy takes the widget of the eCard it was copied from, while that exists.
 * `known` widgets (already read by the caller) are not read again.
 */
export async function widgetDesignsOf(ctx: Pick<ServiceContext, 'models'>, ecards: readonly DesignedEcard[], transaction?: Transaction, known: readonly KnownWidget[] = []): Promise<Map<number, WidgetDesign>> {
  const { models } = ctx;
  const options = transaction ? { transaction } : {};
  const widgets = new Map<number, KnownWidget>(known.map((w) => [w.id, w]));
  const read = async (ids: number[]) => {
    const missing = [...new Set(ids)].filter((id) => !widgets.has(id));
    if (missing.length) for (const w of await models.Widget.findAll({ where: { id: missing }, ...options })) widgets.set(w.id, w);
  };
  await read(ecards.map((e) => e.widget_id));
  const copies = ecards.filter((e) => e.source_ecard_id !== null && widgets.get(e.widget_id)?.is_campaign);
  const sources = copies.length
    ? await models.Ecard.findAll({ attributes: ['id', 'widget_id'], where: { id: [...new Set(copies.map((e) => e.source_ecard_id!))], account_id: copies[0]!.account_id }, ...options })
    : [];
  await read(sources.map((e) => e.widget_id));
  const sourceWidget = new Map(sources.map((e) => [e.id, e.widget_id]));
  const designs = new Map<number, WidgetDesign>();
  for (const ecard of ecards) {
    const widgetId = (ecard.source_ecard_id !== null && widgets.get(ecard.widget_id)?.is_campaign && sourceWidget.get(ecard.source_ecard_id)) || ecard.widget_id;
    const widget = widgets.get(widgetId);
    if (widget) designs.set(ecard.id, widgetDesignOf(widget));
  }
  return designs;
}
