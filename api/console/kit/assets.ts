// The console's browser files under /v2/console/assets/: its own scripts and stylesheets (web/console/) and pinned
// npm libraries (the map below), served by the service itself (CSP 'self', never a CDN) with long cache headers.
// A file is read once, at its first request. Names are fixed: nothing from the request reaches the file system.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../../../lib/paths.ts';
import { defineFile } from '../../http/route.ts';

const resolve = createRequire(import.meta.url).resolve;

/** Pinned npm libraries the console's pages load, by the name a page asks for. */
const LIBRARIES: Record<string, string> = {
  'trix.js': resolve('trix/dist/trix.umd.min.js'),
  'trix.css': resolve('trix/dist/trix.css'),
  // The home's chart (web/console/home-chart.js imports it as ./uplot.js): the ES module build and its stylesheet.
  'uplot.js': resolve('uplot/dist/uPlot.esm.js'),
  'uplot.css': resolve('uplot/dist/uPlot.min.css'),
};

const own = join(packageRoot, 'web', 'console');
const OWN: Record<string, string> = Object.fromEntries(readdirSync(own).filter((f) => /^[a-z0-9-]+\.(js|css)$/.test(f)).map((f) => [f, join(own, f)]));
const FILES: Record<string, string> = { ...OWN, ...LIBRARIES };

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
const cache = new Map<string, string>();

export const assetRoutes = [
  defineFile({
    method: 'get',
    path: '/assets/:name',
    async handler(_input, { koa }) {
      const name = koa.params.name ?? '';
      const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
      if (!file) return null;
      let body = cache.get(name);
      if (body === undefined) cache.set(name, (body = readFileSync(file, 'utf8')));
      // A pinned library changes only with a release; the console's own files may change with any deploy.
      koa.set('Cache-Control', Object.hasOwn(LIBRARIES, name) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      return { type: TYPES[name.split('.').pop()!]!, body };
    },
  }),
];
