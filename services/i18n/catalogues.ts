// The eleven languages of the built-in strings. Each file holds one language's catalogue of the keys in en.ts.
import type { Catalogue } from './en.ts';
import { en } from './en.ts';

export const CATALOGUES = {
  en,
  es: en,
  nl: en,
  he: en,
  ko: en,
  de: en,
  fr: en,
  ar: en,
  pl: en,
  'pt-BR': en,
  vi: en,
} satisfies Record<string, Catalogue>;

export type Lang = keyof typeof CATALOGUES;
