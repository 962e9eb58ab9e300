// The single HTTP client for outbound webhook requests: refuses private/internal targets (SSRF) and never follows redirects.
import { promises as dns } from 'node:dns';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage, IncomingHttpHeaders, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';

export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
  /** The address a name resolved to, for the operator's log only: the message never names it (it maps the network). */
  constructor(message: string, readonly resolvedAddress?: string) {
    super(message);
  }
}

export interface GuardOptions {
  allowPrivate: boolean;
  lookup?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
}

export interface PostOutcome {
  /** HTTP status, or null when no response arrived (refused target, connection error, timeout). */
  status: number | null;
  responseHeaders: Record<string, string>;
  /** At most maxResponseBytes of the response body, as text. */
  responseBody: string;
  /** Why there was no usable response: 'target refused: …', 'timeout after 15000 ms', 'connection error: ECONNREFUSED', …; null when a response arrived. */
  error: string | null;
  durationMs: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 8192;

// IPv4 and IPv6 rules live in separate lists: a single net.BlockList matches IPv4 addresses against
// IPv6 rules written in ::ffff:0:0/96 form, so mixing them would block every IPv4 address.
const blockedV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", incl. 0.0.0.0 which connects to the local host
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast 255.255.255.255
] as const) {
  blockedV4.addSubnet(network, prefix, 'ipv4');
}

// IPv6 forms that carry an IPv4 address are refused outright rather than unpacked: no legitimate
// webhook receiver needs them, and unpacking is where SSRF filters usually go wrong.
const blockedV6 = new BlockList();
for (const [network, prefix] of [
  ['::', 96], // unspecified ::, loopback ::1 and IPv4-compatible ::a.b.c.d
  ['::ffff:0:0', 96], // IPv4-mapped ::ffff:a.b.c.d
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b::', 96], // NAT64 well-known prefix
  ['64:ff9b:1::', 48], // NAT64 local-use prefix
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo (embeds an IPv4 address)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local, still routed internally by some networks
  ['ff00::', 8], // multicast
] as const) {
  blockedV6.addSubnet(network, prefix, 'ipv6');
}

/** Syntax checks (scheme, credentials, https unless allowPrivate); returns the parsed URL or throws TargetRefusedError with a readable message. */
export function checkTargetUrl(url: string, options: Pick<GuardOptions, 'allowPrivate'>): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefusedError('not a valid URL');
  }
  if (parsed.protocol === 'http:' && !options.allowPrivate) {
    throw new TargetRefusedError('URL must use https');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new TargetRefusedError(`URL scheme ${parsed.protocol.replace(/:$/, '')} is not allowed; use https`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TargetRefusedError('URL must not contain credentials');
  }
  if (bareHostname(parsed) === '') {
    throw new TargetRefusedError('URL has no host');
  }
  return parsed;
}

/** True when an IP address (v4 or v6 text) may not be a webhook target. */
export function isBlockedAddress(address: string): boolean {
  // A zone index (fe80::1%eth0) only exists for link-local scopes; anything not an IP fails closed.
  if (address.includes('%')) return true;
  const family = isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family === 6) return blockedV6.check(address, 'ipv6');
  return true;
}

/** checkTargetUrl + resolve + check every address; returns the address to connect to; throws TargetRefusedError. Used when a URL is saved and before every attempt. */
export async function resolveTarget(url: string, options: GuardOptions): Promise<{ url: URL; address: string; family: 4 | 6 }> {
  try {
    return await resolveChecked(url, options);
  } catch (err) {
    if (err instanceof LookupFailedError) throw new TargetRefusedError(err.message);
    throw err;
  }
}

/** POSTs the exact body; never throws for network or HTTP outcomes (a refused target is an outcome too). */
export async function guardedPost(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: GuardOptions & { timeoutMs: number; maxResponseBytes?: number },
): Promise<PostOutcome> {
  const started = performance.now();
  // One deadline covers resolution, connect and the whole response, so a slow DNS server or a
  // trickling receiver cannot hold a worker longer than timeoutMs.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const outcome = (fields: Partial<PostOutcome>): PostOutcome => ({
    status: null, responseHeaders: {}, responseBody: '', error: null, ...fields, durationMs: performance.now() - started,
  });
  try {
    const target = await Promise.race([resolveChecked(url, options), rejectOnAbort(deadline.signal)]);
    const response = await send(target, body, headers, options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, deadline.signal);
    return outcome(response);
  } catch (err) {
    return outcome({ error: describeFailure(err, deadline.signal.aborted, options.timeoutMs) });
  } finally {
    clearTimeout(timer);
  }
}

// Kept apart from TargetRefusedError so a transient DNS failure during delivery reads as such,
// while resolveTarget (saving a URL) still reports it as a refusal.
class LookupFailedError extends Error {
  override name = 'LookupFailedError';
}

interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

async function resolveChecked(url: string, options: GuardOptions): Promise<CheckedTarget> {
  const parsed = checkTargetUrl(url, options);
  const host = bareHostname(parsed);
  const addresses = isIP(host) ? [host] : await lookupAll(host, options.lookup);
  if (addresses.length === 0) throw new LookupFailedError(`host ${host} has no addresses`);
  // Every address is checked, not just the first: a name returning one public and one private
  // address could otherwise be steered to the private one.
  const blocked = options.allowPrivate ? undefined : addresses.find((address) => isBlockedAddress(address));
  if (blocked !== undefined) {
    if (host === blocked) throw new TargetRefusedError(`address ${blocked} is not allowed`);
    throw new TargetRefusedError(`host ${host} resolves to a private or internal address, which is not allowed`, blocked);
  }
  const address = addresses[0] as string;
  const family = isIP(address);
  if (family !== 4 && family !== 6) throw new TargetRefusedError(`host ${host} resolved to something that is not an IP address`, address);
  return { url: parsed, address, family };
}

async function lookupAll(host: string, lookup: GuardOptions['lookup']): Promise<string[]> {
  try {
    const results = lookup ? await lookup(host) : await dns.lookup(host, { all: true, verbatim: true });
    return results.map((result) => result.address);
  } catch (err) {
    throw new LookupFailedError(`cannot resolve host ${host}: ${errorCode(err)}`);
  }
}

// URL.hostname keeps the brackets of an IPv6 literal; isIP and BlockList want the bare address.
function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
}

function send(
  target: CheckedTarget,
  body: string,
  headers: Record<string, string>,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Partial<PostOutcome>> {
  return new Promise((resolve, reject) => {
    const request = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(requestOptions(target, body, headers, signal), (res) => {
      readLimited(res, maxBytes).then(
        (text) => resolve({ status: res.statusCode ?? null, responseHeaders: flattenHeaders(res.headers), responseBody: text }),
        reject,
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

function requestOptions(target: CheckedTarget, body: string, headers: Record<string, string>, signal: AbortSignal): RequestOptions {
  const { url, address, family } = target;
  const host = bareHostname(url);
  // Connect to the address that was checked: a second DNS query could answer differently (DNS rebinding).
  // net.connect asks for an array when autoSelectFamily is on, a single address otherwise.
  const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const ownHeaders = new Set(['host', 'content-length', 'transfer-encoding']);
  const callerHeaders = Object.fromEntries(Object.entries(headers).filter(([name]) => !ownHeaders.has(name.toLowerCase())));
  return {
    method: 'POST',
    protocol: url.protocol,
    hostname: host,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    family,
    lookup: pinnedLookup,
    // TLS SNI and certificate checks use the URL's name; IP literals get no SNI (RFC 6066).
    ...(url.protocol === 'https:' && isIP(host) === 0 ? { servername: host } : {}),
    // A private one-off agent: no pooled socket to another address, and never a proxy.
    agent: false,
    signal,
    headers: { ...callerHeaders, Host: url.host, 'Content-Length': String(Buffer.byteLength(body, 'utf8')) },
  };
}

// Keeps the first maxBytes of the body and then drops the connection, so a huge or endless
// response neither fills memory nor keeps the socket open until the deadline.
function readLimited(res: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let done = false;
    const finish = (): void => {
      done = true;
      // StringDecoder.write holds back a multi-byte character cut in half by the limit.
      resolve(new StringDecoder('utf8').write(Buffer.concat(chunks)));
    };
    res.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - kept;
      if (chunk.length < room) {
        chunks.push(chunk);
        kept += chunk.length;
        return;
      }
      chunks.push(chunk.subarray(0, room));
      finish();
      res.destroy();
    });
    res.on('end', () => {
      if (!done) finish();
    });
    res.on('error', (err) => {
      if (!done) reject(err);
    });
    res.on('close', () => {
      if (!done && !res.complete) reject(Object.assign(new Error('response ended early'), { code: 'ECONNRESET' }));
    });
  });
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function describeFailure(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (err instanceof TargetRefusedError) return `target refused: ${err.message}`;
  if (timedOut) return `timeout after ${timeoutMs} ms`;
  if (err instanceof LookupFailedError) return `dns error: ${err.message}`;
  return `connection error: ${errorCode(err)}`;
}

function errorCode(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return typeof code === 'string' ? code : err.message;
  }
  return String(err);
}
