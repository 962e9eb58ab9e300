// The one `locale` every endpoint accepts (send-ecard, campaigns, automations, a widget's wconfig, the console's
// forms): a language tag (`en`, `fr-CA`, `pt_BR`) or one of the aliases languageOf reads (`hebrew`,
// `brazilian-portuguese`, `nam`), an alias stored as the language it names (docs/decisions.md, issue 46).
import { z } from 'zod';
import { aliasLanguage, LONGEST_ALIAS } from './locale.ts';

const LANGUAGE_TAG = /^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{2,8})*$/;
/** The columns that hold a locale are 16 characters; an alias is stored as its (shorter) language. */
const TAG_MAX = 16;
/** What a client may send (the published maxLength): a tag of 16, or the longest alias. */
export const LOCALE_MAX = Math.max(TAG_MAX, LONGEST_ALIAS);

export const LOCALE_MESSAGE = 'expected a language code such as en or fr-CA, or a language name such as hebrew';

/** A locale as given → what is stored: an alias becomes its language (`hebrew` → `he`), a tag is kept as written. */
export function localeCode(message = LOCALE_MESSAGE) {
  return z
    .string()
    .trim()
    .max(LOCALE_MAX, `at most ${LOCALE_MAX} characters`)
    .refine((value) => aliasLanguage(value) !== undefined || (value.length <= TAG_MAX && LANGUAGE_TAG.test(value)), message)
    .transform((value) => aliasLanguage(value) ?? value);
}
