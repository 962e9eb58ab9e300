// The card page's look: the envelope's theme, its colours and the brand's, resolved to the CSS custom properties the
// page's stylesheet draws with. Every text colour is checked against what it sits on and moved until it reads
// (≥ 4.5:1), so a brand with white text on white still renders readable text.
import { contrastRatio, parseColor, readableOn, textOn, toHex } from '../../../lib/colors.ts';
import type { BrandDesign } from '../accept/snapshot.ts';

export const ENVELOPE_THEMES = ['classic', 'modern', 'kraft', 'night'] as const;
export type EnvelopeTheme = (typeof ENVELOPE_THEMES)[number];

const COLOR_KEYS = ['envelope', 'liner', 'card', 'text', 'background', 'accent'] as const;
type ColorKey = (typeof COLOR_KEYS)[number];
type Palette = Record<ColorKey, string>;

// Each theme's own colours; `address` is the ink of the recipient's name on the envelope.
const THEMES: Record<EnvelopeTheme, Palette & { address: string }> = {
  classic: { envelope: '#f3ead9', liner: '#9b3a33', card: '#fffdf8', text: '#2b2320', background: '#e9e2d8', accent: '#9b3a33', address: '#4a3a2e' },
  modern: { envelope: '#fbfcfe', liner: '#4338ca', card: '#ffffff', text: '#1f2433', background: '#e4e8f1', accent: '#4338ca', address: '#1f2433' },
  kraft: { envelope: '#c9a37a', liner: '#2f5d46', card: '#fbf7ee', text: '#33261a', background: '#e7ddcf', accent: '#2f5d46', address: '#2e1f12' },
  night: { envelope: '#1d2340', liner: '#c9a227', card: '#fffdf7', text: '#1e1b2e', background: '#0c0f22', accent: '#b8901c', address: '#f1e4b8' },
};

// decisions "Brands": the four font stacks.
const FONT_STACKS: Record<string, string> = {
  system: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
  humanist: 'Seravek, "Gill Sans", "Trebuchet MS", sans-serif',
  serif: 'Georgia, "Times New Roman", serif',
  mono: 'ui-monospace, Menlo, Consolas, monospace',
};
// The card's headline when the brand asks for nothing in particular (the default brand's `system`).
const DISPLAY_SERIF = '"Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "Noto Serif", serif';

export const themeOf = (value: string | null | undefined): EnvelopeTheme =>
  (ENVELOPE_THEMES as readonly string[]).includes(value ?? '') ? (value as EnvelopeTheme) : 'classic';

// Only plain colour values pass (they land inside a style block); anything else is left to the theme.
const SAFE_COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([\d\s.,%/]+\))$/;
const colorOrNull = (value: unknown): string | null => (typeof value === 'string' && SAFE_COLOR.test(value) && parseColor(value) !== null ? value : null);

/** The eCard's `envelope_color_settings` (a JSON string), read leniently: unknown keys and bad values are ignored. */
export function envelopeColors(settings: string | null): Partial<Palette> {
  let parsed: unknown;
  try {
    parsed = settings ? JSON.parse(settings) : {};
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const found: Partial<Palette> = {};
  for (const key of COLOR_KEYS) {
    const value = colorOrNull((parsed as Record<string, unknown>)[key]);
    if (value !== null) found[key] = value;
  }
  return found;
}

// A colour as the solid hex it is drawn with (text contrast is measured on solid colours).
const solid = (color: string) => toHex({ ...parseColor(color)!, a: 1 });

// `a` moved `t` of the way toward `b`, as hex (solid).
function mixHex(a: string, b: string, t: number): string {
  const [x, y] = [parseColor(a)!, parseColor(b)!];
  return toHex({ r: x.r + (y.r - x.r) * t, g: x.g + (y.g - x.g) * t, b: x.b + (y.b - x.b) * t, a: 1 });
}

export interface PageLook {
  theme: EnvelopeTheme;
  /** The page's background colour (a checked colour value). */
  background: string;
  /** CSS custom properties, name → value (every value a checked colour or a fixed font stack). */
  vars: Array<{ name: string; value: string }>;
}

/** The page's look: theme defaults, under the brand's colours and font, under the eCard's envelope colours. */
export function pageLook(themeName: string | null | undefined, settings: string | null, brand: BrandDesign | null): PageLook {
  const theme = themeOf(themeName);
  const base = THEMES[theme];
  const own = envelopeColors(settings);
  const fromBrand: Partial<Palette> = {};
  if (brand) {
    if (colorOrNull(brand.background_color)) fromBrand.card = brand.background_color!;
    if (colorOrNull(brand.text_color)) fromBrand.text = brand.text_color!;
    if (colorOrNull(brand.primary_color)) fromBrand.accent = brand.primary_color!;
  }
  const p: Palette = { ...base, ...fromBrand, ...own };
  const card = solid(p.card);
  const envelope = solid(p.envelope);
  const note = mixHex(card, p.accent, 0.08);
  // A button or a rule the colour of the card would vanish into it (a white brand on a white card): moved until it shows.
  const visibleOn = (color: string) => (contrastRatio(color, card) < 1.5 ? readableOn(color, card, 3) : color);
  const accent = visibleOn(solid(p.accent));
  const bodyFont = FONT_STACKS[brand?.font ?? 'system'] ?? FONT_STACKS.system!;
  const headFont = !brand || brand.font === 'system' || !FONT_STACKS[brand.font] ? DISPLAY_SERIF : bodyFont;
  const noteAccent = visibleOn(solid(colorOrNull(brand?.accent_color) ?? p.accent));
  const vars: Record<string, string> = {
    bg: p.background,
    'page-ink': textOn(solid(p.background)),
    envelope,
    'envelope-shade': mixHex(envelope, '#000000', 0.1),
    'envelope-deep': mixHex(envelope, '#000000', 0.2),
    liner: p.liner,
    address: readableOn(base.address, envelope),
    card,
    ink: readableOn(p.text, card),
    link: readableOn(p.accent, card),
    note,
    'note-ink': readableOn(p.text, note),
    'note-accent': noteAccent,
    accent,
    'on-accent': textOn(accent),
    font: bodyFont,
    'head-font': headFont,
  };
  return { theme, background: p.background, vars: Object.entries(vars).map(([name, value]) => ({ name, value })) };
}
