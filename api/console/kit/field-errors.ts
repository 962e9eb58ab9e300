// The console forms' one way to show a refused save at its fields: each message beside the field it concerns, in
// words a person reads ("Email subject is too long (at most 500 characters)", never `emailSubject: Too big`), with
// the rest (a refusal no field owns) above the form. The view marks the field with the `invalid` helper and shows
// the message with the `field-error` partial (aria-invalid, aria-describedby).
import type { ApiError, FieldIssue } from '../../../lib/errors.ts';

/** A form's fields in words, by the name of its input: `{ emailSubject: 'Email subject' }`. */
export type FieldLabels = Readonly<Record<string, string>>;

/** The message shown at each field, by input name; `general` holds what no field owns (shown above the form). */
export interface FieldErrors {
  fields: Record<string, string>;
  general: string[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A schema's issue in words, the field named by its label. */
export function issueInWords(issue: FieldIssue, label: string): string {
  switch (issue.kind) {
    case 'missing':
      return `${label} is required`;
    case 'too_long':
      return `${label} is too long (at most ${plural(issue.limit!, 'character')})`;
    case 'too_short':
      return issue.limit === 1 ? `${label} is required` : `${label} is too short (at least ${plural(issue.limit!, 'character')})`;
    case 'too_big':
      return `${label} is too large (at most ${issue.limit})`;
    case 'too_small':
      return `${label} is too small (at least ${issue.limit})`;
    case 'url':
      return `${label} must be a web address starting with https:// or http://`;
    default:
      return `${label}: ${issue.message.replace(/^Invalid input: /, '')}`;
  }
}

// A service's own refusal names its field first: `myEcard.expireOn: must be later …`, `ecardimg is larger than 5 MB`.
const NAMED = /^(?:\w+\.)*(\w+)(:? )(.+)$/s;

/** Other fields a message names (`later than publishOn`) by their labels. */
const namedInWords = (text: string, labels: FieldLabels) => text.replace(/\b(?:\w+\.)*(\w+)\b/g, (whole, name: string) => (Object.hasOwn(labels, name) ? `“${labels[name]}”` : whole));

/** The field a path names: its deepest part that is one of the form's inputs (`wconfig.thumbColumns` → thumbColumns). */
const fieldOf = (path: readonly string[], labels: FieldLabels) => [...path].reverse().find((part) => Object.hasOwn(labels, part));

/**
 * A refusal's messages by the field each concerns: a schema's issues by their path; a service's message by the
 * field it names first. Each field shows its first message; messages of no known field are `general`.
 */
export function fieldErrorsOf(err: ApiError, labels: FieldLabels): FieldErrors {
  const errors: FieldErrors = { fields: {}, general: [] };
  const place = (field: string | undefined, words: string, original: string) => {
    if (field === undefined) errors.general.push(original);
    else errors.fields[field] ??= words;
  };
  if (err.issues.length) {
    for (const issue of err.issues) {
      const field = fieldOf(issue.path, labels);
      place(field, field === undefined ? '' : issueInWords(issue, labels[field]!), `${issue.path.join('.')}: ${issue.message}`);
    }
    return errors;
  }
  for (const message of err.messages) {
    const named = NAMED.exec(message);
    const field = named && Object.hasOwn(labels, named[1]!) ? named[1]! : undefined;
    place(field, field === undefined ? '' : `${labels[field]}${named![2]}${namedInWords(named![3]!, labels)}`, message);
  }
  return errors;
}

/** What a form's view gets from a refusal: the messages no field owns above the form (`error`), the rest by field. */
export function errorView(errors: FieldErrors | undefined): { error: string | undefined; fieldErrors: Record<string, string> } {
  return { error: errors?.general.length ? errors.general.join('; ') : undefined, fieldErrors: errors?.fields ?? {} };
}
