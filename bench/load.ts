// The HTTP pairs' load generator: autocannon (programmatic API), `connections` keep-alive connections each sending
// its next request as soon as the last is answered, for `seconds`; then no connection starts another and the run
// ends when every request sent is answered, so the rate is answers / time until the last answer (no request is
// abandoned in flight: a POST the server accepted is always one the pair counted). Every answer must be 2xx: a
// non-2xx, an error or a timeout fails the pair with what came back.
// It runs in a worker thread of the harness process (BENCH_GENERATOR=thread, the default), or on the harness's
// main thread (BENCH_GENERATOR=inline); docs/performance.md says which keeps up better and why.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import autocannon, { type Client, type RequestParams } from 'autocannon';

export interface LoadSpec {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  method: 'GET' | 'POST';
  /** The path; placeholders as in `body`. */
  path: string;
  /** Headers; their values take placeholders as in `body`. */
  headers?: Record<string, string>;
  /**
   * The body. Placeholders, filled per request: `{{n}}` the request's number in this run (from 0), `{{n%K}}` it
   * modulo K, `{{name}}` the next value of `lists[name]` (cycled), `{{once}}` the next value of `once`.
   */
  body?: string;
  lists?: Record<string, string[]>;
  /** Values used once each (`{{once}}`): when they run out, no connection starts another request (`exhausted`). */
  once?: string[];
  connections: number;
  seconds: number;
  /** Keep every answer's body (the POST pairs read what was accepted). */
  keepBodies?: boolean;
}

export interface LoadResult {
  /** Requests answered (all 2xx). */
  answered: number;
  /** answered / seconds from the first connection to the last answer. */
  rate: number;
  /** Epoch milliseconds (comparable across threads and with the Temporal server's clock on this machine). */
  startedAt: number;
  lastAnswerAt: number;
  bodies: string[];
  /** `once` ran out before the round's seconds. */
  exhausted: boolean;
}

export type GeneratorMode = 'thread' | 'inline';
export const GENERATOR_MODE: GeneratorMode = process.env.BENCH_GENERATOR === 'inline' ? 'inline' : 'thread';

const PLACEHOLDER = /\{\{([^}]+)\}\}/g;
const HAS_PLACEHOLDER = /\{\{[^}]+\}\}/;

/** A template as its literal parts and a function per placeholder, so filling it per request is one join. */
function compile(template: string, spec: LoadSpec, next: { once: () => string }): (n: number) => string {
  const parts: Array<string | ((n: number) => string)> = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push(template.slice(last, match.index));
    last = match.index + match[0].length;
    const name = match[1]!;
    const modulo = /^n%(\d+)$/.exec(name);
    const list = spec.lists?.[name];
    if (name === 'n') parts.push((n) => String(n));
    else if (modulo) parts.push((n) => String(n % Number(modulo[1])));
    else if (name === 'once') parts.push(() => next.once());
    else if (list?.length) parts.push((n) => list[n % list.length]!);
    else throw new Error(`load: no values for the placeholder {{${name}}}`);
  }
  parts.push(template.slice(last));
  if (parts.length === 1) return () => template;
  return (n) => parts.map((p) => (typeof p === 'string' ? p : p(n))).join('');
}

/** One run on this thread. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const once = spec.once ?? [];
  let used = 0;
  const path = compile(spec.path, spec, { once: () => once[used++] ?? '' });
  const body = spec.body === undefined ? undefined : compile(spec.body, spec, { once: () => once[used++] ?? '' });
  const headers = { ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}), ...spec.headers };
  const dynamicHeaders = Object.entries(headers).filter(([, value]) => HAS_PLACEHOLDER.test(value)).map(([name, value]) => [name, compile(value, spec, { once: () => once[used++] ?? '' })] as const);
  const dynamic = HAS_PLACEHOLDER.test(spec.path) || (spec.body !== undefined && HAS_PLACEHOLDER.test(spec.body)) || dynamicHeaders.length > 0;
  let n = 0;
  const bodies: string[] = [];
  const failures: string[] = [];
  let answered = 0;
  let lastAnswerAt = 0;
  let exhausted = false;
  const startedAt = performance.timeOrigin + performance.now();
  const deadline = startedAt + spec.seconds * 1000;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.origin,
        connections: spec.connections,
        // A backstop only: the run ends when its connections stop (below). Ending on the duration would abandon
        // the requests in flight.
        duration: spec.seconds + 300,
        sampleInt: 20,
        timeout: 60,
        requests: [
          {
            method: spec.method,
            path: spec.path,
            headers,
            ...(spec.body !== undefined ? { body: spec.body } : {}),
            // Static requests are built once by autocannon; only templates pay for a build per request.
            ...(dynamic
              ? {
                  setupRequest: (request: RequestParams): RequestParams => {
                    const i = n++;
                    const filled = dynamicHeaders.length ? { ...request.headers, ...Object.fromEntries(dynamicHeaders.map(([name, value]) => [name, value(i)])) } : request.headers;
                    return { ...request, path: path(i), headers: filled, ...(body ? { body: body(i) } : {}) };
                  },
                }
              : {}),
            onResponse: (status: number, text: string) => {
              if (status < 200 || status > 299) {
                if (failures.length < 3) failures.push(`${status}: ${text.slice(0, 300)}`);
              } else if (spec.keepBodies) bodies.push(text);
            },
          },
        ],
      },
      (err, result) => {
        if (err) return reject(err);
        const bad = result.non2xx + result.errors + result.timeouts + result.mismatches;
        if (bad > 0 || failures.length > 0) {
          const codes = Object.entries(result.statusCodeStats).map(([code, { count }]) => `${count} × ${code}`).join(', ');
          return reject(new Error(`${spec.method} ${spec.origin}${spec.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors (${result.timeouts} timeouts) [${codes}]${failures.length ? `; first: ${failures.join(' | ')}` : ''}`));
        }
        const seconds = (lastAnswerAt - startedAt) / 1000;
        resolve({ answered, rate: answered / seconds, startedAt, lastAnswerAt, bodies, exhausted });
      },
    );
    // Each answer: counted; past the deadline (or with no value left for the next request) the connection makes
    // no other request, so it closes once this one is answered (autocannon closes a client at its responseMax).
    instance.on('response', (client: Client, status: number) => {
      if (status >= 200 && status <= 299) answered += 1;
      lastAnswerAt = performance.timeOrigin + performance.now();
      const outOfValues = spec.once !== undefined && used >= once.length;
      if (outOfValues) exhausted = true;
      if (outOfValues || lastAnswerAt >= deadline) client.responseMax = client.reqsMade;
    });
  });
}

// ---- The generator thread: one per harness process, started on first use, kept for the run.

const THREAD_MARK = 'cardsvc-bench-load';
let thread: Worker | undefined;
let jobs = 0;
const waiting = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();

function generatorThread(): Worker {
  if (thread) return thread;
  // A thread does not take the harness's `--import tsx` hooks for its entry on node 20: it registers tsx first, then
  // loads this file.
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: THREAD_MARK });
  worker.on('message', (message: { id: number; result?: LoadResult; error?: string }) => {
    const job = waiting.get(message.id);
    waiting.delete(message.id);
    if (waiting.size === 0) worker.unref();
    if (message.error !== undefined) job?.reject(new Error(message.error));
    else job?.resolve(message.result!);
  });
  worker.on('error', (err) => {
    for (const job of waiting.values()) job.reject(err);
    waiting.clear();
    thread = undefined;
  });
  worker.unref();
  thread = worker;
  return worker;
}

/** A run of the load generator where GENERATOR_MODE puts it. */
export function httpLoad(spec: LoadSpec): Promise<LoadResult> {
  if (GENERATOR_MODE === 'inline') return runLoad(spec);
  const worker = generatorThread();
  const id = ++jobs;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    // Held open while a run is under way; let go between runs so the harness exits when it is done.
    worker.ref();
    worker.postMessage({ id, spec });
  });
}

/** The rate of `seconds` of GETs of `url` (each answered 200-299), as httpLoad measures it. */
export async function getRate(url: string, seconds: number, connections: number, headers: Record<string, string> = {}): Promise<number> {
  const { origin, pathname, search } = new URL(url);
  return (await httpLoad({ origin, method: 'GET', path: `${pathname}${search}`, headers, connections, seconds })).rate;
}

if (!isMainThread && workerData === THREAD_MARK) {
  parentPort!.on('message', ({ id, spec }: { id: number; spec: LoadSpec }) => {
    runLoad(spec).then(
      (result) => parentPort!.postMessage({ id, result }),
      (err: unknown) => parentPort!.postMessage({ id, error: (err as Error).message }),
    );
  });
}
