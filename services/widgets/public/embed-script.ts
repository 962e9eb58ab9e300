// The embed's browser code (web/widget-embed/, plain JavaScript read once at start): the loader, written per
// request with its widget's settings, and the frame-side bridge, the same for every widget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../lib/paths.ts';
import type { EmbedTarget } from './embed.ts';

const folder = join(packageRoot, 'web', 'widget-embed');
const LOADER_CALL = '})(CARDSVC_EMBED);';
const loaderSource = readFileSync(join(folder, 'loader.js'), 'utf8');
if (!loaderSource.includes(LOADER_CALL)) throw new Error(`web/widget-embed/loader.js must end with ${LOADER_CALL}`);

/** The frame-side bridge (GET /embed/bridge.js). */
export const bridgeScript = readFileSync(join(folder, 'bridge.js'), 'utf8');

/** JSON that is also safe JavaScript source anywhere (no `<`, no line separators). */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<>\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The loader for one widget or eCard: its settings written into the script. */
export function loaderScript(target: EmbedTarget): string {
  const settings = { origin: target.origin, vanity: target.vanity, anchor: target.anchor, src: target.src, title: target.title };
  return loaderSource.replace(LOADER_CALL, `})(${scriptJson(settings)});`);
}
