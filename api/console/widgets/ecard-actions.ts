// The eCards tab's actions on one eCard (its id in the path; the grid's forms post here): copy into this or
// another widget, hide or show, set or remove its price (the widget's `ecardPrices`), delete (an eCard a send used
// asks for a confirmation naming the impact, then spends an inline token). Each answers 303 to the grid.
import { z } from 'zod';
import { bulkUpdateEcards, copyEcard, deleteEcards, findEcard } from '../../../services/ecards/records.ts';
import { findWidget, pricesOf, saveWidget } from '../../../services/widgets/admin/widgets.ts';
import { SaveWidgetBody } from '../../widgets/schema.ts';
import { definePage, page, seeOther } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { parseInput } from '../../http/validation.ts';
import { numericId, resource } from '../../schema-helpers.ts';
import { withInlineToken } from '../kit/inline-token.ts';

const EcardIdParams = z.object({ id: resource('ecard', numericId()) });
const VisibilityForm = z.object({ hidden: z.enum(['yes', 'no'], { error: 'hidden: expected yes or no' }) });

/** The grid's address, with a notice key when an action just happened. */
export const gridOf = (widgetId: number, done?: string) => `${CONSOLE_PREFIX}/widgets/${widgetId}/ecards${done ? `?done=${done}` : ''}`;

/** The action's path for an eCard of the grid (one id per path: the eCard's; its widget is read from it). */
const action = (name: string) => `/widgets/ecards/:id/${name}`;

/** A price field as the key API's `ecardPrices` value: a number when it reads as one (else as written, so the schema names the problem). */
const priceValue = (text: string): unknown => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text);

/** "3 sends, 1 campaign": what uses an eCard, as its refusal's impact counts it. */
function impactText(impact: unknown): string {
  const first = Array.isArray(impact) ? (impact[0] as Record<string, unknown> | undefined) : undefined;
  const parts = (['sends', 'campaigns', 'automations'] as const)
    .map((kind) => [kind, Number(first?.[kind] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${n === 1 ? kind.slice(0, -1) : kind}`);
  return parts.length ? `It is used by ${parts.join(', ')}.` : 'It is in use.';
}

export const widgetEcardActionRoutes = [
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: action('copy'),
    audit: 'ecards.copy',
    params: EcardIdParams,
    async handler({ params, form }, { services, account }) {
      const source = await findEcard(services, account.id, params.id);
      const target = form.widgetid ? parseInput(z.object({ widgetid: resource('widget', numericId()) }), form, 'body').widgetid : source.widget_id;
      const copy = await copyEcard(services, account.id, source.id, target);
      return seeOther(gridOf(source.widget_id, copy.widget_id === source.widget_id ? 'copied' : 'copied-elsewhere'));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: action('visibility'),
    audit: 'ecards.set_visibility',
    params: EcardIdParams,
    async handler({ params, form }, { services, account }) {
      // The eCard first: another account's is a 404 whatever the form says.
      const ecard = await findEcard(services, account.id, params.id);
      const body = parseInput(VisibilityForm, form, 'body');
      await bulkUpdateEcards(services, account.id, { ecardids: [ecard.id] }, 'disabled', body.hidden === 'yes');
      return seeOther(gridOf(ecard.widget_id, body.hidden === 'yes' ? 'hidden' : 'shown'));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: action('price'),
    audit: 'ecards.set_price',
    params: EcardIdParams,
    async handler({ params, form }, { services, account }) {
      const ecard = await findEcard(services, account.id, params.id);
      const widget = await findWidget(services, account.id, ecard.widget_id);
      // The map is replaced whole (as the key API's save does): this eCard's entry changes, the others stay.
      const prices: Record<string, unknown> = { ...(await pricesOf(services, [widget.id])).get(widget.id) };
      const text = (form.price ?? '').trim();
      if (text === '') delete prices[String(ecard.id)];
      else prices[String(ecard.id)] = priceValue(text);
      const { ecardPrices } = parseInput(SaveWidgetBody, { widget: {}, ecardPrices: prices }, 'body');
      await saveWidget(services, account.id, { id: widget.id, widget: {}, prices: ecardPrices, token: undefined });
      return seeOther(gridOf(widget.id, text === '' ? 'price-removed' : 'price-set'));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: action('delete'),
    audit: 'ecards.delete',
    params: EcardIdParams,
    async handler({ params, form }, context) {
      const { services, account } = context;
      const ecard = await findEcard(services, account.id, params.id);
      const widget = await findWidget(services, account.id, ecard.widget_id);
      const gated = await withInlineToken(
        context,
        form,
        { purpose: 'ecard_delete_in_use', resourceId: ecard.id, action: `Delete the eCard “${ecard.name}”`, back: gridOf(widget.id) },
        (token) => deleteEcards(services, account.id, [ecard.id], token),
      );
      if ('done' in gated) return seeOther(gridOf(widget.id, 'deleted'));
      return page({
        title: `Delete the eCard “${ecard.name}”?`,
        view: 'widget-ecards-delete',
        styles: ['widget-grid.css'],
        widget: { id: widget.id, name: widget.name },
        ecard: { id: ecard.id, name: ecard.name },
        impact: impactText(gated.confirm.impact),
      });
    },
  }),
];
