// A widget page's colours and sizes as CSS custom properties: the theme's palette (light or dark), the widget's
// accent (`widgetThemeColor`) with text that reads on it, and the owner's style columns over both. Every colour is
// parsed and written back as hex, so nothing but a colour reaches the style sheet.
import { parseColor, readableOn, textOn, toHex } from '../../../lib/colors.ts';
import type { WidgetDisplay } from './display.ts';
import type { WidgetStyles } from './gallery.ts';

const PALETTES = {
  light: { bg: '#f4f2ee', surface: '#ffffff', ink: '#1d2127', muted: '#5b616b', line: 'rgba(20, 24, 31, .1)', accent: '#5a46d6', shadow: 'rgba(28, 30, 40, .12)' },
  dark: { bg: '#121419', surface: '#1d2129', ink: '#eceef3', muted: '#a4abb8', line: 'rgba(255, 255, 255, .12)', accent: '#9d8cff', shadow: 'rgba(0, 0, 0, .45)' },
};

const colour = (value: string | null | undefined): string | null => {
  const parsed = typeof value === 'string' ? parseColor(value) : null;
  return parsed ? toHex(parsed) : null;
};

const px = (value: number | null | undefined, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? Math.min(40, Math.max(10, Math.round(value))) : fallback);

/** The custom properties of the page's root (`--name: value;` pairs) and its theme. */
export function widgetLook(display: WidgetDisplay, styles: WidgetStyles): { theme: 'light' | 'dark'; vars: string } {
  const p = PALETTES[display.theme];
  const bg = colour(styles.stylebg) ?? p.bg;
  const surface = colour(styles.stylebgbody) ?? p.surface;
  const head = colour(styles.stylebghead);
  const accent = colour(display.widgetThemeColor) ?? p.accent;
  const ink = colour(styles.styletext) ?? readableOn(p.ink, surface, 7);
  const vars: Record<string, string> = {
    '--bg': bg,
    '--surface': surface,
    '--ink': ink,
    '--muted': readableOn(p.muted, surface),
    '--page-ink': readableOn(colour(styles.styletext) ?? p.ink, bg),
    '--page-muted': readableOn(p.muted, bg),
    '--line': p.line,
    '--shadow': p.shadow,
    '--accent': accent,
    '--on-accent': textOn(accent),
    '--accent-ink': readableOn(accent, surface),
    '--ring': readableOn(accent, bg, 3),
    '--link': colour(styles.stylelink) ?? readableOn(accent, surface),
    '--head-bg': head ?? 'transparent',
    '--head-pad': head ? '16px 20px' : '2px 0 6px',
    '--head-ink': colour(styles.styleheadtext) ?? readableOn(p.ink, head ?? bg),
    '--font-size': `${px(styles.style_fontsize, 16)}px`,
    '--head-size': `${px(styles.style_fontsize_header, 26)}px`,
    '--cols': String(display.thumbColumns),
    '--cols-narrow': String(Math.min(display.thumbColumns, 2)),
    '--thumb-h': `${display.thumbHeight}px`,
  };
  return { theme: display.theme, vars: Object.entries(vars).map(([name, value]) => `${name}: ${value};`).join(' ') };
}

/** The owner's CSS inside the page's `<style>`: it cannot close the element (sanitized at save; this is the second lock). */
export const styleText = (css: string | null): string => (css ?? '').replace(/<\/(style)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
