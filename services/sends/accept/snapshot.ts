// A send's snapshot: the eCard's design as it was when the send was accepted (texts, artwork, envelope). Render,
// dispatch and the share page read only this, so a sent or scheduled card is unaffected by later edits and
// deletes of its design ("Sent cards keep working"). Campaigns and automations will take theirs the same way.
// Each distinct design is stored once (send_designs, keyed by the SHA-256 of its JSON text) and a send refers to it
// (send_design_refs); the migration that brought them moved every older copy out of send_snapshots, so nothing reads
// that table.
import type { ServiceContext } from '../../context.ts';
import { createHash } from 'node:crypto';
import type { Attributes, Transaction } from 'sequelize';
import { z } from 'zod';
import { insertRows } from '../../../lib/written-statements.ts';
import type { Ecard } from '../../../models/Ecard.ts';
import type { Models } from '../../../models/index.ts';
import type { Widget } from '../../../models/Widget.ts';
import type { BrandView } from '../../brands/view.ts';

const text = z.string().nullable();

/** The brand as the card showed it at accept: the eCard's brand or the default, with the send's overrides. */
export const BrandDesign = z.object({
  id: z.number().int().nullable(),
  name: z.string(),
  logo_url: text,
  website: text,
  address: text,
  primary_color: text,
  accent_color: text,
  background_color: text,
  text_color: text,
  font: z.string(),
  footer_text: text,
  social: z.object({ twitter: text, facebook: text, instagram: text, linkedin: text, youtube: text }),
});
export type BrandDesign = z.infer<typeof BrandDesign>;

/** A send's `overrideProps.brand`: any of the brand's keys (checked at the edge as a brand save checks them). */
export type BrandOverride = Partial<Omit<BrandDesign, 'id' | 'social'>> & { social?: Partial<BrandDesign['social']> | undefined };

const NO_SOCIAL: BrandDesign['social'] = { twitter: null, facebook: null, instagram: null, linkedin: null, youtube: null };

/** What a widget adds to its eCards' snapshots: its own details (filling the brand's gaps) and its merge-tag fallbacks. */
export interface WidgetDesign {
  logo: string | null;
  website: string | null;
  address: string | null;
  social: BrandDesign['social'];
  merge_tag_defaults: Record<string, string>;
}

/** The widget's columns a design takes. */
export type WidgetDesignSource = Pick<Widget, 'logo' | 'website' | 'address' | 'stwitter' | 'sfacebook' | 'sinstagram' | 'slinkedin' | 'syoutube' | 'merge_tag_defaults'>;

export function widgetDesignOf(widget: WidgetDesignSource): WidgetDesign {
  return {
    logo: widget.logo,
    website: widget.website,
    address: widget.address,
    social: { twitter: widget.stwitter, facebook: widget.sfacebook, instagram: widget.sinstagram, linkedin: widget.slinkedin, youtube: widget.syoutube },
    merge_tag_defaults: widget.merge_tag_defaults,
  };
}

const hasDetails = (widget: WidgetDesign | null | undefined) =>
  Boolean(widget && (widget.logo || widget.website || widget.address || Object.values(widget.social).some(Boolean)));

// The brand's empty logo, website, address and social links take the widget's own (decisions.md, "Brands").
function filledByWidget(brand: BrandDesign, widget: WidgetDesign | null | undefined): BrandDesign {
  if (!widget) return brand;
  const social = Object.fromEntries(Object.entries(brand.social).map(([network, link]) => [network, link || widget.social[network as keyof BrandDesign['social']] || null]));
  return {
    ...brand,
    logo_url: brand.logo_url || widget.logo || null,
    website: brand.website || widget.website || null,
    address: brand.address || widget.address || null,
    social: social as BrandDesign['social'],
  };
}

/**
 * The brand a snapshot keeps: the resolved brand (null when the account has none), its gaps filled by the eCard's
 * widget, with the send's overrides over both; `social`, when overridden, is replaced whole, as a save replaces it.
 */
export function brandDesignOf(brand: Omit<BrandView, 'is_default' | 'created_at' | 'updated_at'> | null, override?: BrandOverride, widget?: WidgetDesign | null): BrandDesign | null {
  if (!brand && !override && !hasDetails(widget)) return null;
  const base: BrandDesign = filledByWidget(
    brand
      ? { id: brand.id, name: brand.name, logo_url: brand.logo_url, website: brand.website, address: brand.address, primary_color: brand.primary_color, accent_color: brand.accent_color, background_color: brand.background_color, text_color: brand.text_color, font: brand.font, footer_text: brand.footer_text, social: brand.social }
      : { id: null, name: '', logo_url: null, website: null, address: null, primary_color: null, accent_color: null, background_color: null, text_color: null, font: 'system', footer_text: null, social: NO_SOCIAL },
    widget,
  );
  if (!override) return base;
  const { social, ...fields } = override;
  const changed = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return { ...base, ...changed, ...(social === undefined ? {} : { social: { ...NO_SOCIAL, ...Object.fromEntries(Object.entries(social).filter(([, v]) => v !== undefined)) } }) };
}

export const EcardDesign = z.object({
  ecard_id: z.number().int(),
  widget_id: z.number().int(),
  name: z.string(),
  emailSubject: text,
  header: text,
  details: text,
  self_hosted_url: text,
  ecardLink: text,
  url_redirect_after_send: text,
  envelope_bg_image_url: text,
  envelope_audio_url: text,
  envelope_video_url: text,
  envelope_color_settings: text,
  envelope_auto_open: z.boolean(),
  envelope_confetti: z.boolean(),
  // Added after the first snapshots were taken: older ones render as the default mode (`popup_card`).
  ecard_mode: text.optional(),
  // Added with brands: snapshots from before have none and render unbranded.
  brand: BrandDesign.optional(),
  // Added with the card page (issue 30): older snapshots render with the defaults (`classic` theme, no repeat,
  // the built-in labels, no Open Graph texts of their own, no merge-tag fallbacks).
  envelope_theme: text.optional(),
  envelope_audio_repeat: z.boolean().optional(),
  ecardLinkAltText: text.optional(),
  thumbnail_alt_label: text.optional(),
  og_title: text.optional(),
  og_description: text.optional(),
  /** The widget's `merge_tag_defaults`: tag → text filling an empty tag. */
  merge_tag_defaults: z.record(z.string(), z.string()).optional(),
});
export type EcardDesign = z.infer<typeof EcardDesign>;

/** The eCard's design, with the brand it is shown in where there is one and its widget's merge-tag fallbacks. */
export function designOf(ecard: Attributes<Ecard>, brand: BrandDesign | null = null, widget: WidgetDesign | null = null): EcardDesign {
  const fallbacks = widget?.merge_tag_defaults ?? {};
  return {
    ecard_id: ecard.id,
    widget_id: ecard.widget_id,
    name: ecard.name,
    emailSubject: ecard.email_subject,
    header: ecard.header,
    details: ecard.details,
    self_hosted_url: ecard.self_hosted_url,
    ecardLink: ecard.ecard_link,
    url_redirect_after_send: ecard.url_redirect_after_send,
    envelope_bg_image_url: ecard.envelope_bg_image_url,
    envelope_audio_url: ecard.envelope_audio_url,
    envelope_video_url: ecard.envelope_video_url,
    envelope_color_settings: ecard.envelope_color_settings,
    envelope_auto_open: ecard.envelope_auto_open,
    envelope_confetti: ecard.envelope_confetti,
    ecard_mode: ecard.ecard_mode,
    ...(brand ? { brand } : {}),
    envelope_theme: ecard.envelope_theme,
    envelope_audio_repeat: ecard.envelope_audio_repeat,
    ecardLinkAltText: ecard.ecard_link_alt_text,
    thumbnail_alt_label: ecard.thumbnail_alt_label,
    og_title: ecard.og_title,
    og_description: ecard.og_description,
    ...(Object.keys(fallbacks).length ? { merge_tag_defaults: fallbacks } : {}),
  };
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

// Design ids by SHA-256, per database, as seen committed: a stored design is never changed nor deleted (its key is
// its content), so an id once committed stays right, and a design seen before costs an accept no read. Bounded; the
// oldest go first.
const knownDesigns = new WeakMap<Models['SendDesign'], Map<string, number>>();
const KNOWN_DESIGNS = 1000;

function knownOf(ctx: Pick<ServiceContext, 'models'>): Map<string, number> {
  const { models } = ctx;
  let known = knownDesigns.get(models.SendDesign);
  if (!known) knownDesigns.set(models.SendDesign, (known = new Map<string, number>()));
  return known;
}

function remember(known: Map<string, number>, rows: ReadonlyArray<{ sha256: string; id: number }>): void {
  for (const r of rows) known.set(r.sha256, r.id);
  for (const oldest of known.keys()) {
    if (known.size <= KNOWN_DESIGNS) break;
    known.delete(oldest);
  }
}

/**
 * The ids of these designs (SHA-256 → JSON text), stored where missing. Most are known or stored already: a plain
 * read finds them and takes no lock, so accepts never wait on one another here (the INSERT IGNORE and locking read
 * did, on MySQL, even with nothing to insert). Only the missing ones are inserted, then read with a lock, which sees
 * a row another transaction committed after this one's snapshot (its insert was ignored here); they are known to
 * the process once this transaction commits.
 */
async function designIds(ctx: Pick<ServiceContext, 'models'>, distinct: Map<string, string>, transaction: Transaction): Promise<Map<string, number>> {
  const { models } = ctx;
  const known = knownOf(ctx);
  const ids = new Map<string, number>();
  for (const hash of distinct.keys()) if (known.has(hash)) ids.set(hash, known.get(hash)!);
  const unknown = [...distinct.keys()].filter((hash) => !ids.has(hash));
  if (unknown.length === 0) return ids;
  const found = await models.SendDesign.findAll({ attributes: ['id', 'sha256'], where: { sha256: unknown }, transaction });
  remember(known, found);
  for (const r of found) ids.set(r.sha256, r.id);
  const missing = unknown.filter((hash) => !ids.has(hash));
  if (missing.length === 0) return ids;
  await models.SendDesign.bulkCreate(missing.map((hash) => ({ sha256: hash, design: distinct.get(hash)! })), { ignoreDuplicates: true, transaction });
  const made = await models.SendDesign.findAll({ attributes: ['id', 'sha256'], where: { sha256: missing }, lock: transaction.LOCK.SHARE, transaction });
  for (const r of made) ids.set(r.sha256, r.id);
  const rows = made.map((r) => ({ sha256: r.sha256, id: r.id }));
  transaction.afterCommit(() => remember(known, rows));
  return ids;
}

/**
 * The sends' snapshots, in their own transaction (so there is no accepted send without one): the distinct designs
 * are written where missing and read back with one statement each, whatever the number of sends (bulk prepare);
 * the references in one written-out INSERT.
 */
export async function saveSnapshots(ctx: Pick<ServiceContext, 'models'>, snapshots: ReadonlyArray<{ sendPk: number; design: EcardDesign }>, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  if (snapshots.length === 0) return;
  const texts = snapshots.map((s) => JSON.stringify(s.design));
  const hashes = texts.map(sha256);
  const distinct = new Map(hashes.map((hash, i) => [hash, texts[i]!]));
  const ids = await designIds(ctx, distinct, transaction);
  await insertRows(models.SendDesignRef, snapshots.map((s, i) => ({ send_id: s.sendPk, design_id: ids.get(hashes[i]!)! })), transaction);
}

export async function saveSnapshot(ctx: Pick<ServiceContext, 'models'>, sendPk: number, design: EcardDesign, transaction: Transaction): Promise<void> {
  await saveSnapshots(ctx, [{ sendPk, design }], transaction);
}

/** A stored design's JSON text as the design it holds. */
export const designFromText = (text: string): EcardDesign => EcardDesign.parse(JSON.parse(text));

/** The sends' snapshots by send row id (a send without one is absent: see loadSnapshot). */
export async function loadSnapshots(ctx: Pick<ServiceContext, 'models'>, sendPks: readonly number[]): Promise<Map<number, EcardDesign>> {
  const { models } = ctx;
  const found = new Map<number, EcardDesign>();
  if (sendPks.length === 0) return found;
  const refs = await models.SendDesignRef.findAll({ where: { send_id: [...sendPks] } });
  const designs = new Map(
    (await models.SendDesign.findAll({ where: { id: [...new Set(refs.map((r) => r.design_id))] } })).map((d) => [d.id, designFromText(d.design)]),
  );
  for (const ref of refs) found.set(ref.send_id, designs.get(ref.design_id)!);
  return found;
}

/** The send's snapshot; null only for a send accepted before snapshots existed whose eCard was already gone. */
export async function loadSnapshot(ctx: Pick<ServiceContext, 'models'>, sendPk: number): Promise<EcardDesign | null> {
  return (await loadSnapshots(ctx, [sendPk])).get(sendPk) ?? null;
}
