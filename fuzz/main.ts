// The fuzzer (fuzz/run.ts starts it on an empty database): bad input against every operation of the served OpenAPI
// document, on the test stack (API, worker, Temporal dev server) with rate limits raised.
import fc from 'fast-check';
import { newAccount } from '../test/helpers/api.ts';
import { runSuiteCleanup } from '../test/helpers/cleanup.ts';
import { suiteDatabaseUrl } from '../test/helpers/database.ts';
import { testReceiver } from '../test/helpers/receiver.ts';
import { startStack } from '../test/helpers/stack.ts';
import { answerProblem, countChanges, rowCounter, type Answer, type RowCounts } from './check.ts';
import { makeResources, publishWidget, validRequest } from './fixtures.ts';
import { describeCase, MUTATIONS, mutate, toHttp, type HttpRequest, type Mutation, type RequestParts } from './mutations.ts';
import { maxLengthOf, operations, type Field, type OpenApiDocument, type Operation } from './openapi.ts';

const seed = Number(process.env.FUZZ_SEED ?? 18);
const runs = Number(process.env.FUZZ_RUNS ?? 30);
const only = process.env.FUZZ_ONLY;
// FUZZ_API=widget fuzzes the embeddable widget's public API (its own document) instead of the key API.
const widgetApi = process.env.FUZZ_API === 'widget';
const unlimited = 'free=1000000/100000000,pro=1000000/100000000,enterprise=1000000/100000000';

const started = Date.now();
const stack = await startStack({ RATE_LIMITS: unlimited });
const receiver = await testReceiver();
const countRows = rowCounter(stack.models);
const document = (await (await fetch(`${stack.url}${widgetApi ? '/v2/widget' : '/v2/api'}/openapi.json`)).json()) as OpenApiDocument;
const base = `${stack.url}${document.servers[0]?.url ?? ''}`;
const selected = operations(document).filter((op) => !only || op.name.includes(only));
console.log(`fuzz${widgetApi ? ' (widget API)' : ''}: seed ${seed}, ${runs} runs × ${selected.length} operations, database ${suiteDatabaseUrl.split(':')[0]}`);

async function send(request: HttpRequest, key: string): Promise<Answer> {
  const res = await fetch(request.url, {
    method: request.method,
    headers: { Authorization: `Bearer ${key}`, ...request.headers },
    ...(request.body === undefined ? {} : { body: request.body }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, requestId: res.headers.get('x-request-id'), text: await res.text() };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The row counts once the worker has stopped changing them: two readings a second apart agree (at most `seconds`).
 * A second, not less: a sandbox campaign's emails reach the outbox one sweep apart, and a shorter gap took a pause
 * between two of them for quiet (a 4xx then seemed to write `mail_sink`).
 */
async function quiet(seconds = 10): Promise<RowCounts> {
  let last = await countRows();
  for (let i = 0; i < seconds; i++) {
    await pause(1000);
    const next = await countRows();
    if (countChanges(last, next).length === 0) return next;
    last = next;
  }
  return last;
}

/** Each operation's own seed from FUZZ_SEED, so operations get different cases and one replays alone. */
function seedOf(op: Operation): number {
  let hash = seed;
  for (const char of op.name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

// The counts as the last 4xx left them (a success may leave the worker writing, so its counts are read afresh).
let known: RowCounts | undefined;

/** The case's problem, or null: the answer's, then (for a 4xx) rows it left behind. */
async function runCase(op: Operation, key: string, request: HttpRequest, statuses: Map<number, number>): Promise<string | null> {
  const before = known ?? (await countRows());
  known = undefined;
  const answer = await send(request, key);
  statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  const problem = answerProblem(answer, op);
  if (problem) return `${problem}: ${answer.text.slice(0, 300)}`;
  if (answer.status < 400) return null;
  const after = await countRows();
  if (countChanges(before, after).length === 0) {
    known = after;
    return null;
  }
  // The worker may finish an earlier success's work meanwhile: a half-write shows again when the request is repeated.
  const settled = await quiet();
  const again = await send(request, key);
  const changes = countChanges(settled, await countRows());
  return again.status >= 400 && changes.length ? `${again.status} but rows changed: ${changes.join(', ')}: ${again.text.slice(0, 300)}` : null;
}

interface Prepared {
  op: Operation;
  key: string;
  valid: RequestParts;
}

/** A fresh sandbox account for the operation (no other operation's sends or webhooks at work in it), its resources and valid request. */
async function prepare(op: Operation): Promise<Prepared> {
  const account = await newAccount(stack.models, 'enterprise');
  // The sandbox reaches every documented route (each valid request's status is printed).
  const key = account.sandboxKey;
  const resources = await makeResources(stack.url, key, receiver.url, op.path);
  return { op, key, valid: validRequest(op, widgetApi ? await publishWidget(stack.url, key, resources) : resources) };
}

/**
 * The cases whose answer is known, run on every operation besides the random ones: a body nested 65 deep on a
 * POST is 400 body_too_deep; a text one character over a field's published maxLength is 400.
 */
async function strictCases(op: Operation, key: string, valid: RequestParts, statuses: Map<number, number>): Promise<string | null> {
  const cases: Array<{ mutation: Mutation; field: Field | undefined; code?: string }> = [
    ...(op.method === 'POST' ? [{ mutation: 'too_deep' as const, field: undefined, code: 'body_too_deep' }] : []),
    ...op.fields.filter((f) => maxLengthOf(f.schema) !== undefined).map((field) => ({ mutation: 'over_max_length' as const, field })),
  ];
  for (const { mutation, field, code } of cases) {
    const request = toHttp(base, mutate(valid, mutation, field));
    const problem = await runCase(op, key, request, statuses);
    if (problem) return `${describeCase(mutation, field)}: ${problem}`;
    const answer = await send(request, key);
    const body = JSON.parse(answer.text) as { code?: string };
    if (answer.status !== 400 || (code && body.code !== code)) {
      return `${describeCase(mutation, field)}: expected 400${code ? ` ${code}` : ''}, got ${answer.status}: ${answer.text.slice(0, 300)}`;
    }
  }
  return null;
}

async function fuzzOperation({ op, key, valid }: Prepared): Promise<string | null> {
  const opStarted = Date.now();
  const statuses = new Map<number, number>();
  const cases = fc.record({ mutation: fc.constantFrom<Mutation>(...MUTATIONS), field: fc.nat({ max: Math.max(0, op.fields.length - 1) }) });
  const result = await fc.check(
    fc.asyncProperty(cases, async ({ mutation, field }) => {
      const target = op.fields[field];
      const problem = await runCase(op, key, toHttp(base, mutate(valid, mutation, target)), statuses);
      if (problem) throw new Error(`${describeCase(mutation, target)}: ${problem}`);
    }),
    { seed: seedOf(op), numRuns: runs, endOnFailure: true },
  );
  const strictFailure = result.failed ? null : await strictCases(op, key, valid, statuses);
  // The valid request last, so a delete in it leaves the cases their resources.
  const validAnswer = await send(toHttp(base, { parts: valid, headers: {} }), key);
  known = undefined;
  const counts = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ');
  const failure = result.failed ? (result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)) : strictFailure;
  console.log(`${failure ? 'FAIL' : 'ok  '} ${op.name.padEnd(48)} valid ${validAnswer.status}  ${counts}  ${Date.now() - opStarted} ms`);
  if (validAnswer.status !== 200) console.log(`     valid request: ${validAnswer.text.slice(0, 200)}`);
  if (failure) console.log(`     ${failure}\n     replay: FUZZ_SEED=${seed} FUZZ_ONLY='${op.name}' npm run fuzz`);
  return failure && `${op.name}: ${failure}`;
}

const failures: string[] = [];
try {
  // Every operation's resources first, four operations at a time, then one wait for the worker to finish with them.
  const prepared: Prepared[] = [];
  for (let i = 0; i < selected.length; i += 4) {
    for (const [j, outcome] of (await Promise.allSettled(selected.slice(i, i + 4).map(prepare))).entries()) {
      if (outcome.status === 'fulfilled') prepared.push(outcome.value);
      else failures.push(`${selected[i + j]!.name}: resources: ${String(outcome.reason)}`);
    }
  }
  await quiet(30);
  console.log(`resources made in ${Math.round((Date.now() - started) / 1000)}s`);
  for (const item of prepared) {
    const failure = await fuzzOperation(item);
    if (failure) failures.push(failure);
  }
} finally {
  await runSuiteCleanup();
}
for (const failure of failures) console.log(`FAIL ${failure}`);
const seconds = Math.round((Date.now() - started) / 1000);
console.log(failures.length ? `\nfuzz: ${failures.length} operation(s) failed in ${seconds}s` : `\nfuzz: passed, ${selected.length * runs} cases in ${seconds}s`);
process.exit(failures.length ? 1 : 0);
