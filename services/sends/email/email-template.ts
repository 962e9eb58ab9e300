// The email template (templates/email.mjml) compiled to a Handlebars template, once per process for each palette and
// direction, behind a small cache. MJML is imported on the first compile, not when a module imports this one: only the
// worker renders emails, so the API and `cardsvc` never load it. Compiling at run time, not at build, keeps one source
// of truth with nothing generated to drift; the first email of a palette pays about a tenth of a second.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
// A type only: erased at run time, so importing this module loads no MJML.
import type mjml2htmlOf from 'mjml';
import { packageRoot } from '../../../lib/paths.ts';
import type { EmailPalette } from './email-palette.ts';
import { paletteKey } from './email-palette.ts';

export type Direction = 'ltr' | 'rtl';
export type EmailTemplate = HandlebarsTemplateDelegate;

// Brands rarely share a look, so the cache is bounded: the least recently used palette is compiled again if needed.
const MAX_TEMPLATES = 64;

let source: string | undefined;
const templateSource = () => (source ??= readFileSync(join(packageRoot, 'templates', 'email.mjml'), 'utf8'));

function tokensOf(palette: EmailPalette, dir: Direction): Record<string, string> {
  const { dark, ...light } = palette;
  return {
    ...light,
    ...Object.fromEntries(Object.entries(dark).map(([name, value]) => [`dark.${name}`, value])),
    dir,
    align: dir === 'rtl' ? 'right' : 'left',
    start: dir === 'rtl' ? 'right' : 'left',
  };
}

/** The MJML source with the palette's and direction's `[[name]]` placeholders filled (the Handlebars parts remain). */
export function emailMjml(palette: EmailPalette, dir: Direction): string {
  const tokens = tokensOf(palette, dir);
  return templateSource().replace(/\[\[([\w.]+)\]\]/g, (_, name: string) => {
    if (!Object.hasOwn(tokens, name)) throw new Error(`templates/email.mjml: unknown placeholder [[${name}]]`);
    return tokens[name]!;
  });
}

let mjml: Promise<typeof mjml2htmlOf> | undefined;
const loadMjml = () => (mjml ??= import('mjml').then((m) => m.default));

const handlebars = Handlebars.create();
const cache = new Map<string, Promise<EmailTemplate>>();

async function compile(palette: EmailPalette, dir: Direction): Promise<EmailTemplate> {
  const mjml2html = await loadMjml();
  // Validated strictly by a test (with sample values in place of the Handlebars parts); here it is only compiled.
  const { html } = await mjml2html(emailMjml(palette, dir), { validationLevel: 'skip', keepComments: false, fonts: {}, ignoreIncludes: true });
  return handlebars.compile(html, { strict: false });
}

/** The compiled template of this palette and direction (compiled on first use; concurrent callers share the compile). */
export function emailTemplate(palette: EmailPalette, dir: Direction): Promise<EmailTemplate> {
  const key = `${dir}:${paletteKey(palette)}`;
  const cached = cache.get(key);
  if (cached) {
    // Most recently used last: Map keeps insertion order, so the first key is the one to drop.
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const made = compile(palette, dir);
  cache.set(key, made);
  // A failed compile is not kept: the next email tries again.
  made.catch(() => cache.get(key) === made && cache.delete(key));
  if (cache.size > MAX_TEMPLATES) cache.delete(cache.keys().next().value!);
  return made;
}
