// The eleven languages of the built-in strings. Each file holds one language's catalogue of the keys in en.ts.
import type { Catalogue } from './en.ts';
import { ar } from './ar.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { he } from './he.ts';
import { ko } from './ko.ts';
import { nl } from './nl.ts';
import { pl } from './pl.ts';
import { ptBR } from './pt-br.ts';
import { vi } from './vi.ts';

export const CATALOGUES = {
  en,
  es,
  nl,
  he,
  ko,
  de,
  fr,
  ar,
  pl,
  'pt-BR': ptBR,
  vi,
} satisfies Record<string, Catalogue>;

export type Lang = keyof typeof CATALOGUES;
