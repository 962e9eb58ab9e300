// The loader (GET /embed/widget/{vanity_id}, /embed/ecard/{ecard_vanity_id}), the frame-side bridge
// (GET /embed/bridge.js) and the form's message counter (GET /embed/message-counter.js, web/widget/): HTTP only;
// what is embedded is services/widgets/public/embed.ts, the scripts services/widgets/public/embed-script.ts. A widget that is not public answers the one 404 of the widget's addresses
// (not cached, so a widget turned public shows soon); a script is cached five minutes (a widget turned private
// then keeps its loader that long, but its page answers 404 at once).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'koa';
import { z } from 'zod';
import { ecardEmbed, widgetEmbed } from '../../../services/widgets/public/embed.ts';
import { bridgeScript, loaderScript } from '../../../services/widgets/public/embed-script.ts';
import { packageRoot } from '../../../lib/paths.ts';
import { defineFile, type FileResult } from '../../http/route.ts';

const SCRIPT_TYPE = 'application/javascript; charset=utf-8';
const CACHE = 'public, max-age=300';
/** The widget form's message counter (web/widget/), the same for every widget. */
const messageCounter = readFileSync(join(packageRoot, 'web', 'widget', 'message-counter.js'), 'utf8');

function script(koa: Context, body: string): FileResult {
  koa.set('Cache-Control', CACHE);
  return { type: SCRIPT_TYPE, body };
}

export const embedRoutes = [
  defineFile({
    method: 'get',
    path: '/embed/bridge.js',
    async handler(_input, { koa }) {
      return script(koa, bridgeScript);
    },
  }),
  defineFile({
    method: 'get',
    path: '/embed/message-counter.js',
    async handler(_input, { koa }) {
      return script(koa, messageCounter);
    },
  }),
  defineFile({
    method: 'get',
    path: '/embed/widget/:vanityId',
    params: z.object({ vanityId: z.string() }),
    async handler({ params }, { services, koa }) {
      koa.set('Cache-Control', 'no-store');
      return script(koa, loaderScript(await widgetEmbed(services, params.vanityId)));
    },
  }),
  defineFile({
    method: 'get',
    path: '/embed/ecard/:ecardVanityId',
    params: z.object({ ecardVanityId: z.string() }),
    async handler({ params }, { services, koa }) {
      koa.set('Cache-Control', 'no-store');
      return script(koa, loaderScript(await ecardEmbed(services, params.ecardVanityId)));
    },
  }),
];
