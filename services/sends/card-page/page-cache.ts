// Rendered card pages, kept a minute per process by everything they show (docs/decisions.md, "Reads (issue 35,
// item 4)"): a page is read from the database on every request, and rendered again only when something it shows
// differs from a page rendered in the last minute. The key is every value the render reads (the design by its
// SHA-256, which names its content), so a change anywhere (an open, an erasure, a widget made private, an edit in
// another process) is a key not seen before, never a stale page. Only the request's nonce differs between two
// requests for one page: a page is kept with a placeholder in its place.
import { randomBytes } from 'node:crypto';
import Handlebars from 'handlebars';
import type { RenderedPage } from './page.ts';

/** At most this many pages per process (about 30 KB each). */
const MAX_PAGES = 256;
/** How long a page is kept: an erased recipient's page leaves the process's memory within twice this. */
const KEEP_MS = 60_000;
/** Rendered where the nonce goes, then replaced by it: hex, which Handlebars writes as it is; random, so no card holds it. */
const NONCE_SLOT = randomBytes(16).toString('hex');

interface Kept {
  /** The page split at the nonce's places. */
  parts: string[];
  frameHosts: string[];
  until: number;
}

// Oldest first (kept in the order made, each for the same time), so expired pages are at the front.
const kept = new Map<string, Kept>();
let sweeper: NodeJS.Timeout | undefined;

function dropExpired(now: number): void {
  for (const [key, page] of kept) {
    if (page.until > now) break;
    kept.delete(key);
  }
  if (kept.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

/** The page rendered by `render` for this key, with this request's nonce in it. */
export function cachedPage(key: string, nonce: string, render: (nonce: string) => RenderedPage): RenderedPage {
  // A cache lifetime, not business time (a test clock moves nothing here).
  const now = Date.now();
  dropExpired(now);
  let page = kept.get(key);
  if (!page) {
    const made = render(NONCE_SLOT);
    page = { parts: made.html.split(NONCE_SLOT), frameHosts: made.frameHosts, until: now + KEEP_MS };
    kept.set(key, page);
    if (kept.size > MAX_PAGES) kept.delete(kept.keys().next().value!);
    // Expired pages go even when no request comes (an erased recipient's name is not kept).
    sweeper ??= setInterval(() => dropExpired(Date.now()), KEEP_MS).unref();
  }
  // As the template writes any value: escaped (a base64 nonce's `=` is `&#x3D;`).
  return { html: page.parts.join(Handlebars.escapeExpression(nonce)), frameHosts: page.frameHosts };
}
