// How a widget is shown: the spec's field names, `wconfig` parsed, prices as a map.
import type { z } from 'zod';
import type { Models } from '../../models/index.ts';
import type { Widget as WidgetRow } from '../../models/Widget.ts';
import { pricesOf } from '../../services/widgets.ts';
import type { Widget } from './schema.ts';

export function presentWidget(widget: WidgetRow, prices: Record<string, number>): z.input<typeof Widget> {
  return {
    id: widget.id,
    vanity_id: widget.vanity_id,
    ownerid: widget.account_id,
    name: widget.name,
    wconfig: widget.wconfig,
    dir_sender_must_be_in_directory: widget.dir_sender_must_be_in_directory,
    is_campaign: widget.is_campaign,
    ecardPrices: prices,
    createdat: widget.created_at.toISOString(),
    updatedat: widget.updated_at.toISOString(),
  };
}

/** Widgets with their prices, read in one query. */
export async function presentWidgets(models: Models, widgets: WidgetRow[]) {
  const prices = await pricesOf(models, widgets.map((w) => w.id));
  return widgets.map((w) => presentWidget(w, prices.get(w.id)!));
}

export async function presentWidgetWithPrices(models: Models, widget: WidgetRow) {
  return (await presentWidgets(models, [widget]))[0]!;
}
