// Colours as customers write them (hex, CSS names, rgb()/rgba()), measured for contrast (WCAG 2 relative luminance)
// so text in a brand's or an envelope's colours is never rendered unreadable: a failing colour is darkened or
// lightened until it reads.
import { NAMED_COLORS } from './css-named-colors.ts';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0..1 */
  a: number;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

function fromHex(hex: string): Rgba | null {
  const digits = hex.length <= 4 ? [...hex].map((d) => d + d).join('') : hex;
  if (digits.length !== 6 && digits.length !== 8) return null;
  const n = (i: number) => parseInt(digits.slice(i, i + 2), 16);
  return { r: n(0), g: n(2), b: n(4), a: digits.length === 8 ? n(6) / 255 : 1 };
}

// One rgb() channel: 0–255 or a percentage.
const channel = (part: string) => (part.endsWith('%') ? (parseFloat(part) * 255) / 100 : parseFloat(part));
const alpha = (part: string | undefined) => (part === undefined ? 1 : part.endsWith('%') ? parseFloat(part) / 100 : parseFloat(part));

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, a CSS colour name, `rgb()`/`rgba()` (commas or spaces); else null. */
export function parseColor(value: string): Rgba | null {
  const v = value.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,8})$/.exec(v);
  if (hex) return fromHex(hex[1]!);
  if (Object.hasOwn(NAMED_COLORS, v)) {
    const n = NAMED_COLORS[v]!;
    return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255, a: 1 };
  }
  if (v === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const fn = /^rgba?\(\s*([^)]*)\)$/.exec(v);
  if (!fn) return null;
  const parts = fn[1]!.split(/\s*[,/]\s*|\s+/).filter(Boolean);
  if (parts.length !== 3 && parts.length !== 4) return null;
  if (!parts.every((p) => /^(\d+(\.\d+)?|\.\d+)%?$/.test(p))) return null;
  const [r, g, b] = parts.slice(0, 3).map(channel) as [number, number, number];
  return { r: clamp(Math.round(r), 0, 255), g: clamp(Math.round(g), 0, 255), b: clamp(Math.round(b), 0, 255), a: clamp(alpha(parts[3]), 0, 1) };
}

export function toHex({ r, g, b }: Rgba): string {
  return `#${[r, g, b].map((c) => clamp(Math.round(c), 0, 255).toString(16).padStart(2, '0')).join('')}`;
}

// A translucent colour over the one beneath it (text over a card, a card over a page).
const over = (top: Rgba, bottom: Rgba): Rgba => ({
  r: top.r * top.a + bottom.r * (1 - top.a),
  g: top.g * top.a + bottom.g * (1 - top.a),
  b: top.b * top.a + bottom.b * (1 - top.a),
  a: 1,
});

function luminance({ r, g, b }: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
const INK: Rgba = { r: 17, g: 17, b: 17, a: 1 };

function ratio(fg: Rgba, bg: Rgba): number {
  const solidBg = over(bg, WHITE);
  const [l1, l2] = [luminance(over(fg, solidBg)), luminance(solidBg)];
  return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
}

/** WCAG contrast ratio (1–21) of two colours; an unreadable colour string counts as black on white. */
export function contrastRatio(fg: string, bg: string): number {
  return ratio(parseColor(fg) ?? INK, parseColor(bg) ?? WHITE);
}

/** Near-black or white, whichever reads better on `bg`. */
export function textOn(bg: string): string {
  const back = parseColor(bg) ?? WHITE;
  return ratio(INK, back) >= ratio(WHITE, back) ? toHex(INK) : toHex(WHITE);
}

// The colour moved `t` (0..1) of the way toward `target`.
const mix = (from: Rgba, target: Rgba, t: number): Rgba => ({
  r: from.r + (target.r - from.r) * t,
  g: from.g + (target.g - from.g) * t,
  b: from.b + (target.b - from.b) * t,
  a: 1,
});

/**
 * `fg` as a hex colour that reads on `bg` with at least `min` contrast: unchanged when it already does, else moved
 * toward black or white (whichever side of `bg` can reach `min`, the darker first on a light background) by the
 * least that reaches it, so a brand's hue survives where it can.
 */
export function readableOn(fg: string, bg: string, min = 4.5): string {
  const back = over(parseColor(bg) ?? WHITE, WHITE);
  const front = over(parseColor(fg) ?? INK, back);
  if (ratio(front, back) >= min) return toHex(front);
  const black: Rgba = { r: 0, g: 0, b: 0, a: 1 };
  const targets = luminance(back) > 0.18 ? [black, WHITE] : [WHITE, black];
  for (const target of targets) {
    if (ratio(target, back) < min) continue;
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 20; i++) {
      const mid = (lo + hi) / 2;
      if (ratio(mix(front, target, mid), back) >= min) hi = mid;
      else lo = mid;
    }
    const moved = mix(front, target, hi);
    // Rounding to whole channels may lose a hair of contrast: nudge on until it holds.
    for (let t = hi; t <= 1; t += 0.01) {
      const hex = toHex(mix(front, target, t));
      if (contrastRatio(hex, toHex(back)) >= min) return hex;
    }
    return toHex(moved);
  }
  // No colour reaches `min` on this background (a mid grey asks more than 4.5 of either side): the better of the two.
  return textOn(toHex(back));
}
