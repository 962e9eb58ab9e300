// The envelope's colour settings (`envelope_color_settings`): which keys there are and what a value may be, so save
// and bulkUpdate refuse what the card page could not draw, instead of the page silently falling back.
import { parseColor } from '../../lib/colors.ts';

/** The parts of the envelope and the card a setting colours. */
export const ENVELOPE_COLOR_KEYS = ['envelope', 'liner', 'card', 'text', 'background', 'accent'] as const;
export type EnvelopeColorKey = (typeof ENVELOPE_COLOR_KEYS)[number];

// Today's grammar of the card page (services/sends/card-page/page.ts): what it writes into its styles as given.
const PAGE_GRAMMAR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([\d\s.,%]+\))$/;

/** A colour the page draws as written: hex, a CSS colour name or rgb()/rgba(), in the page's grammar and a real colour. */
export const isEnvelopeColor = (value: string): boolean => PAGE_GRAMMAR.test(value) && parseColor(value) !== null;
