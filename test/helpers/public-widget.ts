// A public widget with eCards, made straight in the database, for tests of the widget's pages and API; and the
// widget API's calls as a page makes them.
import type { Models } from '../../models/index.ts';
import { insertEcard, insertWidget } from './catalog.ts';
import { call, type ApiResponse } from './api.ts';

export async function insertPublicWidget(models: Models, accountId: number, options: { wconfig?: Record<string, unknown>; ecards?: number; fields?: Record<string, unknown> } = {}) {
  const widget = await insertWidget(models, accountId);
  await widget.update({ public_share_enabled: true, wconfig: { theme: 'light', ...options.wconfig }, ...options.fields });
  const ecards = [];
  for (let i = 0; i < (options.ecards ?? 1); i++) ecards.push(await insertEcard(models, accountId, widget.id, { name: `Card ${i + 1}`, display_order: i }));
  return { widget, ecards };
}

/** `GET /v2/widget/<vanity>`: the gallery's data with a fresh form token. */
export const widgetData = (url: string, vanity: string, query = ''): Promise<ApiResponse> => call(url, 'GET', `/v2/widget/${vanity}${query}`);
