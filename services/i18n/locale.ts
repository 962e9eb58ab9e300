// Which of the eleven languages a send's `locale` picks, and the strings in it. Aliases (`french`, `nam`, `pt`) and
// regions (`fr-CA` → `fr`) resolve to one of the languages; anything else is English.
import type { Catalogue, StringKey } from './en.ts';
import { CATALOGUES, type Lang } from './catalogues.ts';

const ALIASES: Record<string, Lang> = {
  english: 'en',
  spanish: 'es',
  dutch: 'nl',
  hebrew: 'he',
  korean: 'ko',
  german: 'de',
  french: 'fr',
  arabic: 'ar',
  polish: 'pl',
  'brazilian-portuguese': 'pt-BR',
  pt: 'pt-BR',
  nam: 'vi',
};

/** The length of the longest alias (`brazilian-portuguese`): a locale's maximum length as a client may send it. */
export const LONGEST_ALIAS = Math.max(...Object.keys(ALIASES).map((alias) => alias.length));

/** The language an alias (`hebrew`, `pt`, `nam`, any case) names; undefined for anything else. */
export function aliasLanguage(value: string): Lang | undefined {
  const wanted = value.trim().toLowerCase();
  return Object.hasOwn(ALIASES, wanted) ? ALIASES[wanted] : undefined;
}

const RTL: ReadonlySet<Lang> = new Set(['he', 'ar']);

const isLang = (value: string): value is Lang => Object.hasOwn(CATALOGUES, value);

/** `fr-CA` → `fr`, `pt_br` → `pt-BR`, `hebrew` → `he`; unknown or empty → `en`. */
export function languageOf(locale: string | null | undefined): Lang {
  const wanted = (locale ?? '').trim().toLowerCase().replace(/_/g, '-');
  if (wanted === 'pt-br') return 'pt-BR';
  if (isLang(wanted)) return wanted;
  if (Object.hasOwn(ALIASES, wanted)) return ALIASES[wanted]!;
  const base = wanted.split('-')[0] ?? '';
  if (isLang(base)) return base;
  return Object.hasOwn(ALIASES, base) ? ALIASES[base]! : 'en';
}

/** Fills `{name}` placeholders; a missing value leaves the placeholder's name out (never "undefined"). */
export function format(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : ''));
}

export interface Strings {
  lang: Lang;
  dir: 'ltr' | 'rtl';
  /** The string `key` in this language with its placeholders filled. */
  t: (key: StringKey, values?: Record<string, string | number>) => string;
  /** Every string, unfilled (for templates that fill their own). */
  all: Catalogue;
}

export function stringsFor(locale: string | null | undefined): Strings {
  const lang = languageOf(locale);
  const all = CATALOGUES[lang];
  return { lang, dir: RTL.has(lang) ? 'rtl' : 'ltr', all, t: (key, values) => format(all[key], values) };
}
