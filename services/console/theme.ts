// The console's colours from the account's default brand: its accent_color as the console's --accent, with the text
// on it and the accent used as link ink computed so both keep 4.5:1 contrast (lib/colors.ts measures and moves them).
import type { ServiceContext } from '../context.ts';
import { parseColor, readableOn, textOn, toHex } from '../../lib/colors.ts';
import { resolveBrand } from '../brands/brands.ts';

// The darkest light surface and the lightest dark one of templates/console/console.css (--surface-2 in each scheme):
// ink that reads on these reads on every other surface of its scheme. Keep them in step with the stylesheet.
const LIGHT_SURFACE = '#eef1f5';
const DARK_SURFACE = '#222831';

/**
 * The stylesheet that sets the console's accent to `accent` (a colour as brands store it: hex, a CSS name, rgb()),
 * or an empty one (the stylesheet's own tokens) when there is none or it cannot be read. Only computed hex colours
 * are written, never the stored text.
 */
export function accentStylesheet(accent: string | null | undefined): string {
  const parsed = accent ? parseColor(accent) : null;
  if (!parsed || parsed.a < 1) return '/* no brand accent: the console\'s default colours */\n';
  const solid = toHex(parsed);
  const vars = (ink: string) => `--accent:${solid};--accent-text:${textOn(solid)};--accent-ink:${ink}`;
  return `:root{${vars(readableOn(solid, LIGHT_SURFACE))}}\n@media (prefers-color-scheme: dark){:root{${vars(readableOn(solid, DARK_SURFACE))}}}\n`;
}

/** The account's console stylesheet: its default brand's accent (a brand is read only within the account). */
export async function accountAccentStylesheet(ctx: Pick<ServiceContext, 'models'>, accountId: number): Promise<string> {
  const brand = await resolveBrand(ctx, accountId, null);
  return accentStylesheet(brand?.accent_color);
}
