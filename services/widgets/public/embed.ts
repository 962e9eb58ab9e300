// What the loader embeds (GET /embed/widget/{vanity_id}, /embed/ecard/{ecard_vanity_id}): the public widget's page,
// or one visible eCard's form in its public widget, each in an iframe inside its own anchor on the host's page.
// Anything else (unknown, private, campaign-backed, an eCard hidden or outside its publish window) is the one
// 404 of every public widget address.
import { notFound } from '../../../lib/errors.ts';
import type { ServiceContext } from '../../context.ts';
import { findPublicWidget, isVisible, WIDGET_NOT_FOUND } from './public.ts';

/** The settings the loader script is written with (see web/widget-embed/loader.js). */
export interface EmbedTarget {
  /** The service's origin: the only one the loader listens to and says hello to. */
  origin: string;
  /** The widget's vanity id (the messages' `vanity`, the events' `widgetid` / `vanity_id`). */
  vanity: string;
  /** The id of the host's `<div>` the iframe goes in. */
  anchor: string;
  /** The framed page's address. */
  src: string;
  /** The iframe's accessible name (a host may set its own with `data-title` on the anchor). */
  title: string;
}

export const WIDGET_ANCHOR_PREFIX = 'cardsvc_widget_';
export const ECARD_ANCHOR_PREFIX = 'cardsvc_ecard_';
const FRAME_TITLE = 'eCards';

const pageUrl = (ctx: ServiceContext, path: string) => ({ origin: new URL(ctx.config.publicBaseUrl).origin, src: `${ctx.config.publicBaseUrl}${path}` });

/** The whole widget (its gallery). */
export async function widgetEmbed(ctx: ServiceContext, vanityId: string): Promise<EmbedTarget> {
  const widget = await findPublicWidget(ctx, vanityId);
  return { ...pageUrl(ctx, `/w/${encodeURIComponent(widget.vanity_id)}`), vanity: widget.vanity_id, anchor: `${WIDGET_ANCHOR_PREFIX}${widget.vanity_id}`, title: FRAME_TITLE };
}

/** One eCard alone (its form, in the eCard's own widget, which must be public). */
export async function ecardEmbed(ctx: ServiceContext, ecardVanityId: string): Promise<EmbedTarget> {
  const ecard = ecardVanityId.length <= 32 ? await ctx.models.Ecard.findOne({ where: { vanity_id: ecardVanityId } }) : null;
  if (!ecard || !isVisible(ecard, ctx.now())) throw notFound(WIDGET_NOT_FOUND);
  const owner = await ctx.models.Widget.findOne({ where: { id: ecard.widget_id, account_id: ecard.account_id } });
  if (!owner) throw notFound(WIDGET_NOT_FOUND);
  const widget = await findPublicWidget(ctx, owner.vanity_id);
  const path = `/w/${encodeURIComponent(widget.vanity_id)}/e/${encodeURIComponent(ecard.vanity_id)}`;
  return { ...pageUrl(ctx, path), vanity: widget.vanity_id, anchor: `${ECARD_ANCHOR_PREFIX}${ecard.vanity_id}`, title: ecard.name || FRAME_TITLE };
}
