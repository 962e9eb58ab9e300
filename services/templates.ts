// eCard text fields are Handlebars templates with merge tags: compiled when saved (a bad one is refused),
// rendered with escaped values, known helpers only and no prototype access; HTML is sanitized before and after.
import Handlebars from 'handlebars';
import sanitizeHtml from 'sanitize-html';
import { ApiError } from '../lib/errors.ts';

const handlebars = Handlebars.create();
const COMPILE_OPTIONS = { knownHelpersOnly: true, strict: false, noEscape: false } as const;

export const BUILT_IN_TAGS = ['recipient_name', 'recipient_email', 'recipient_first_name', 'sender_name', 'sender_email', 'personal_message', 'ecard_link'] as const;

const SAMPLE_VALUES: Record<string, string> = {
  recipient_name: 'Alex Sample',
  recipient_email: 'alex@example.com',
  recipient_first_name: 'Alex',
  sender_name: 'Sam Sender',
  sender_email: 'sam@example.com',
  personal_message: 'Wishing you a wonderful day!',
  ecard_link: 'https://example.com/e/sample',
};

/** Refuses a template that does not compile (422 naming the field). */
export function assertTemplate(field: string, template: string | null | undefined): void {
  if (!template) return;
  try {
    handlebars.precompile(template, COMPILE_OPTIONS);
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new ApiError(422, 'invalid_template', `${field} is not a valid template: ${reason}`);
  }
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'font', 'center'],
  allowedAttributes: {
    '*': ['style', 'class', 'align', 'title'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    font: ['color', 'size', 'face'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Scripts, frames, objects and forms are dropped with their content.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'form'],
};

/** Keeps formatting, links, images and inline style; removes scripts, frames, forms, on* and javascript:/data: URLs. */
export function sanitizeHtmlField(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

/** A list tag (an automation digest's `celebrants`): rows of string fields, for `{{#each}}`. */
export type TemplateList = ReadonlyArray<Readonly<Record<string, string>>>;
/** Merge tag values: strings, or a list of string rows. A send's merge_tags JSON holds the same shape. */
export type TemplateValues = Readonly<Record<string, string | TemplateList>>;

// Only own string fields reach the template, in objects without a prototype (as the top-level context).
function listRows(list: TemplateList): Array<Record<string, string>> {
  return list.map((row) => {
    const copy = Object.create(null) as Record<string, string>;
    for (const [key, value] of Object.entries(row)) if (typeof value === 'string') copy[key] = value;
    return copy;
  });
}

/** Renders a template; unknown tags render empty, values are escaped. `trial` fills missing tags with samples. */
export function renderTemplate(template: string | null, values: TemplateValues, trial: boolean): string {
  if (!template) return '';
  const context: Record<string, string | Array<Record<string, string>>> = Object.create(null) as Record<string, string>;
  if (trial) Object.assign(context, SAMPLE_VALUES);
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string') context[key] = value;
    else if (Array.isArray(value)) context[key] = listRows(value);
  }
  return handlebars.compile(template, COMPILE_OPTIONS)(context, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false });
}
