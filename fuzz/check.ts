// The properties every answer keeps: no 5xx; a failure is a 4xx in its envelope (flat for send-ecard) with
// `code` and `request_id`; a success a 200 in its envelope; and a 4xx leaves every domain table's row count as it was.
import type { Models } from '../models/index.ts';
import type { Operation } from './openapi.ts';

export interface Answer {
  status: number;
  requestId: string | null;
  text: string;
}

type Body = Record<string, unknown>;

const isStringArray = (value: unknown) => Array.isArray(value) && value.every((m) => typeof m === 'string');

function failureProblem(body: Body, requestId: string | null, envelope: 'standard' | 'flat'): string | null {
  if (body.success !== false) return 'success is not false';
  if (!isStringArray(body.messages) || body.messages.length === 0) return 'messages is not a non-empty array of strings';
  if (typeof body.code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(body.code)) return 'code is not a snake_case string';
  if (typeof body.request_id !== 'string' || body.request_id !== requestId) return 'request_id differs from X-Request-Id';
  if (envelope === 'flat') return typeof body.reason === 'string' && !('data' in body) ? null : 'not flat (needs reason, no data)';
  return body.data === null ? null : 'data is not null';
}

function successProblem(body: Body, envelope: 'standard' | 'flat'): string | null {
  if (body.success !== true) return 'success is not true';
  if (!Array.isArray(body.messages) || body.messages.length !== 0) return 'messages is not []';
  if (envelope === 'standard' && !('data' in body)) return 'no data';
  return null;
}

/** Fields the document requires of this answer that it lacks. */
function undocumented(body: Body, op: Operation, status: number): string | null {
  const missing = (op.responses[String(status)]?.required ?? []).filter((name) => !(name in body));
  return missing.length ? `lacks ${missing.join(', ')}, which the document requires of a ${status}` : null;
}

/** What is wrong with the answer's status and body, or null. */
export function answerProblem(answer: Answer, op: Operation): string | null {
  const { envelope } = op;
  if (answer.status >= 500) return `${answer.status}`;
  if (!(String(answer.status) in op.responses)) return `status ${answer.status} is not documented for the operation`;
  if (answer.status !== 200 && (answer.status < 400 || answer.status > 499)) return `status ${answer.status}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `${answer.status} with a body that is not JSON`;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return `${answer.status} with a body that is not an object`;
  const problem = answer.status === 200 ? successProblem(body as Body, envelope) : failureProblem(body as Body, answer.requestId, envelope);
  if (problem) return `${answer.status} outside its ${envelope} envelope: ${problem}`;
  return undocumented(body as Body, op, answer.status);
}

export type RowCounts = Record<string, number>;

// Sign-in bookkeeping of the console is not domain data (and the fuzzer never signs in).
const NOT_DOMAIN = new Set(['console_sessions', 'console_sign_in_failures']);

/** A function counting the rows of every domain table in one query. */
export function rowCounter(models: Models): () => Promise<RowCounts> {
  const quote = (name: string) => models.sequelize.getQueryInterface().quoteIdentifier(name);
  const tables = Object.values(models.sequelize.models)
    .map((model) => model.getTableName() as string)
    .filter((name) => !NOT_DOMAIN.has(name))
    .sort();
  const sql = tables.map((name) => `SELECT ${models.sequelize.escape(name)} AS name, COUNT(*) AS n FROM ${quote(name)}`).join(' UNION ALL ');
  return async () => {
    const [rows] = await models.sequelize.query(sql);
    return Object.fromEntries((rows as Array<{ name: string; n: number | string }>).map((r) => [r.name, Number(r.n)]));
  };
}

/** The tables whose counts moved, e.g. `sends +1`; empty when none did. */
export function countChanges(before: RowCounts, after: RowCounts): string[] {
  return Object.keys(after)
    .filter((name) => after[name] !== before[name])
    .map((name) => `${name} ${after[name]! - (before[name] ?? 0) > 0 ? '+' : ''}${after[name]! - (before[name] ?? 0)}`);
}
