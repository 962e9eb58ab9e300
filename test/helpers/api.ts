// HTTP helpers for API tests: accounts with keys, the typed key-API client, and checks of the shared envelope.
import { expect } from 'chai';
import { createAccount, type CreatedAccount } from '../../services/accounts.ts';
import { createApiKey, type KeyMode } from '../../services/api-keys.ts';
import type { Area, Level } from '../../models/ApiKey.ts';
import type { Models } from '../../models/index.ts';

let counter = 0;

export type TestAccount = CreatedAccount;

/** A new account (with its sandbox and full-access keys), so tests never share data. */
export async function newAccount(models: Models, plan: 'free' | 'pro' | 'enterprise' = 'free'): Promise<TestAccount> {
  counter += 1;
  return createAccount({ models }, { name: `Test ${counter}`, ownerEmail: `owner-${process.pid}-${Date.now()}-${counter}@example.com`, plan });
}

export async function newKey(
  models: Models,
  accountId: number,
  levels: Partial<Record<Area, Level>>,
  mode: KeyMode = 'live',
): Promise<{ keyId: number; key: string }> {
  return createApiKey({ models }, { accountId, mode, name: 'scoped', fullAccess: false, levels });
}

/** A JSON object as the API answers it. */
export type Json = Record<string, unknown>;

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Json;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, signal: options.signal, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A success in the standard envelope: no `code` or `request_id` (the id travels in X-Request-Id). */
export function expectSuccess(res: ApiResponse): unknown {
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body).to.include.keys('success', 'data', 'messages');
  expect(res.body.success).to.equal(true);
  expect(res.body.messages).to.deep.equal([]);
  expect(res.body).not.to.have.any.keys('code', 'request_id');
  expect(res.headers.get('x-request-id')).to.be.a('string').and.not.equal('');
  return res.body.data;
}

/** A failure in the standard envelope with its status, code and request id. */
export function expectFailure(res: ApiResponse, status: number, code: string): string[] {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.deep.include({ success: false, data: null, code });
  expect(res.body.request_id).to.equal(res.headers.get('x-request-id'));
  const messages = res.body.messages as string[];
  expect(messages).to.be.an('array').that.is.not.empty;
  for (const m of messages) expect(m).to.be.a('string').and.not.match(/\n\s+at /);
  return messages;
}

/** A value, or a function giving it when a request is made (a suite's `stack` and `account` are set in its hooks). */
type Late<T> = T | (() => T);
const now = <T>(value: Late<T>): T => (typeof value === 'function' ? (value as () => T)() : value);

/** The key API (paths under /v2/api) with one key unless a request names another; its functions may be taken apart. */
export interface ApiClient {
  /** A request with the client's key (or `key`); `body`, when given, is sent as JSON. */
  api: (method: string, path: string, body?: unknown, key?: string) => Promise<ApiResponse>;
  /** The same request, which must succeed in the standard envelope (expectSuccess): its `data`. */
  ok: <T = Json>(method: string, path: string, body?: unknown, key?: string) => Promise<T>;
  /** A request with every option of `call` (a raw body, headers, a signal); the client's key unless `options.key`. */
  call: (method: string, path: string, options?: CallOptions) => Promise<ApiResponse>;
}

export interface ApiClientOptions {
  /** Sees every answer (a test that checks all of them for leaks). */
  onResponse?: (method: string, path: string, res: ApiResponse) => void;
}

/**
 * The tests' one key-API client. `target` is the API (a stack, an extra app, a URL) and `key` the default key; either
 * may be a function, read at each request, so a suite can make its client once and set its stack and account later.
 */
export function apiClient(target: Late<{ url: string } | string>, key?: Late<string | undefined>, options: ApiClientOptions = {}): ApiClient {
  const baseUrl = () => {
    const t = now(target);
    return typeof t === 'string' ? t : t.url;
  };
  const client: ApiClient = {
    call: async (method, path, callOptions = {}) => {
      const res = await call(baseUrl(), method, `/v2/api${path}`, { ...callOptions, key: callOptions.key ?? now(key) });
      options.onResponse?.(method, path, res);
      return res;
    },
    api: (method, path, body, requestKey) => client.call(method, path, { ...(requestKey === undefined ? {} : { key: requestKey }), ...(body === undefined ? {} : { body }) }),
    ok: async <T = Json>(method: string, path: string, body?: unknown, requestKey?: string) => expectSuccess(await client.api(method, path, body, requestKey)) as T,
  };
  return client;
}
