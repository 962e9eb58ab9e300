// The colours and font an email is drawn in, from the send's brand: every text colour measured against what it sits
// on (lib/colors.ts), so a brand's white text on white still reads; a snapshot without a brand gets a neutral look.
// The palette is what the MJML template is compiled for (email-template.ts): one compile per distinct palette.
import { parseColor, readableOn, textOn, toHex } from '../../../lib/colors.ts';
import type { BrandDesign } from '../accept/snapshot.ts';

// Single quotes: the stacks go into MJML attributes written in double quotes.
const FONTS: Record<string, string> = {
  system: "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
  humanist: "Seravek, 'Gill Sans Nova', Ubuntu, Calibri, 'DejaVu Sans', 'Trebuchet MS', sans-serif",
  serif: "Georgia, 'Times New Roman', serif",
  mono: "ui-monospace, Menlo, Consolas, 'DejaVu Sans Mono', monospace",
};

// Unbranded (and any colour a brand leaves empty): a quiet slate on light grey.
const NEUTRAL = { primary: '#3b4a63', accent: '#8a6cff', background: '#f3f4f6', text: '#1f2328' };
// Dark mode: the panel and page of clients that honour prefers-color-scheme; brand colours are re-measured on them.
const DARK = { page: '#0f1115', surface: '#1b1e24', text: '#e8eaed' };

export interface EmailPalette {
  font: string;
  /** Around the card, and the footer's text and links on it. */
  page: string;
  pageText: string;
  pageMuted: string;
  pageLink: string;
  /** The card's panel and what is written on it. */
  surface: string;
  text: string;
  muted: string;
  link: string;
  /** The "Open your eCard" button. */
  primary: string;
  onPrimary: string;
  /** The personal note's box. */
  noteBg: string;
  noteBorder: string;
  noteText: string;
  /** The gift block and its claim button. */
  giftBg: string;
  giftBorder: string;
  giftText: string;
  accent: string;
  onAccent: string;
  dark: { page: string; surface: string; text: string; muted: string; link: string; noteBg: string; giftBg: string };
}

const rgb = (value: string) => parseColor(value) ?? { r: 0, g: 0, b: 0, a: 1 };

/** `a` moved `t` (0..1) of the way toward `b`, as hex (tints and shades of the brand's own colours). */
export function blend(a: string, b: string, t: number): string {
  const [x, y] = [rgb(a), rgb(b)];
  return toHex({ r: x.r + (y.r - x.r) * t, g: x.g + (y.g - x.g) * t, b: x.b + (y.b - x.b) * t, a: 1 });
}

const luminous = (value: string) => {
  const { r, g, b } = rgb(value);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
};

// A stored colour that does not parse (never expected: saves check them) falls back rather than breaking the email.
const colour = (value: string | null | undefined, fallback: string) => (value && parseColor(value) ? toHex(rgb(value)) : fallback);

export function paletteOf(brand: BrandDesign | undefined): EmailPalette {
  const primary = colour(brand?.primary_color, NEUTRAL.primary);
  const accent = colour(brand?.accent_color, brand?.primary_color ? primary : NEUTRAL.accent);
  const surface = colour(brand?.background_color, '#ffffff');
  // The page around the panel: a step darker than a light panel, lighter than a dark one, so the panel stands out.
  const page = brand?.background_color ? blend(surface, luminous(surface) > 0.5 ? '#000000' : '#ffffff', 0.06) : NEUTRAL.background;
  const text = readableOn(colour(brand?.text_color, NEUTRAL.text), surface);
  const pageText = readableOn(text, page);
  const noteBg = blend(primary, surface, 0.93);
  const giftBg = blend(accent, surface, 0.9);
  return {
    font: FONTS[brand?.font ?? 'system'] ?? FONTS.system!,
    page,
    pageText,
    pageMuted: readableOn(blend(pageText, page, 0.3), page),
    pageLink: readableOn(primary, page),
    surface,
    text,
    muted: readableOn(blend(text, surface, 0.3), surface),
    link: readableOn(primary, surface),
    primary,
    onPrimary: textOn(primary),
    noteBg,
    noteBorder: primary,
    noteText: readableOn(text, noteBg),
    giftBg,
    giftBorder: blend(accent, surface, 0.55),
    giftText: readableOn(text, giftBg),
    accent,
    onAccent: textOn(accent),
    dark: {
      page: DARK.page,
      surface: DARK.surface,
      text: DARK.text,
      muted: readableOn('#aab0ba', DARK.surface),
      link: readableOn(primary, DARK.surface),
      noteBg: blend(primary, DARK.surface, 0.85),
      giftBg: blend(accent, DARK.surface, 0.85),
    },
  };
}

/** The palette's identity: emails of brands that look the same share one compiled template. */
export const paletteKey = (palette: EmailPalette) => JSON.stringify(palette);
