// Turns zod issues into the API's errors: a wrong type or format is 400; a required field missing, null or
// empty is 422. Either way the message names the field. Before any schema, a NUL character anywhere in the
// input is refused (400 invalid_characters): no database stores it faithfully (SQLite cuts a statement there).
import type { z } from 'zod';
import { type ApiError, fieldIssueOf, invalidCharacters, invalidParameter, missingField } from '../../lib/errors.ts';

export type InputPlace = 'body' | 'query' | 'path';

function isMissing(issue: z.core.$ZodIssue): boolean {
  const input = (issue as { input?: unknown }).input;
  // An enum reports a missing value as invalid_value; any rule on an absent value means it is missing.
  if (issue.code === 'invalid_type' || issue.code === 'invalid_value') return input === undefined || input === null;
  if (issue.code === 'too_small') return input === '' || (Array.isArray(input) && input.length === 0);
  return false;
}

export function inputError(issues: readonly z.core.$ZodIssue[], place: InputPlace): ApiError {
  const described = issues.map((issue) => {
    const field = issue.path.length ? issue.path.map(String).join('.') : place;
    const missing = isMissing(issue);
    return { missing, message: missing ? `${field} is required` : `${field}: ${issue.message}`, issue: fieldIssueOf(issue, missing) };
  });
  const malformed = described.filter((d) => !d.missing);
  const shown = malformed.length ? malformed : described;
  const messages = shown.map((d) => d.message);
  const options = { messages, issues: shown.map((d) => d.issue) };
  return malformed.length ? invalidParameter(messages[0]!, options) : missingField(messages[0]!, options);
}

const NUL = '\u0000';

/**
 * The path of the first string or object key that holds U+0000, or null when none does. Iterative (an explicit
 * stack, depth-first in document order), so no input can exhaust the call stack.
 */
function nulPath(root: unknown): string[] | null {
  const stack: Array<{ value: unknown; path: readonly string[] }> = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    const key = path[path.length - 1];
    if (key?.includes(NUL)) return [...path.slice(0, -1), key.replaceAll(NUL, '\\u0000')];
    if (typeof value === 'string') {
      if (value.includes(NUL)) return [...path];
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], path: [...path, entries[i]![0]] });
  }
  return null;
}

/** 400 invalid_characters naming the field when the input holds a NUL character anywhere. */
export function refuseNul(value: unknown, place: InputPlace): void {
  const path = nulPath(value);
  if (!path) return;
  const field = path.length ? path.join('.') : place;
  throw invalidCharacters(`${field} contains a NUL character (U+0000), which is not allowed`);
}

export function parseInput<T extends z.ZodType>(schema: T, value: unknown, place: InputPlace): z.output<T> {
  refuseNul(value, place);
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw inputError(result.error.issues, place);
  return result.data;
}

/** A GET form's query: a blank field means "any", so it is left out before the schema reads the rest. */
export function filledQuery(query: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
}
