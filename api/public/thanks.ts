// "Say thank you" on a recipient's card page, `POST /e/<pageId>/thanks` with `message` (1–1,000 characters): HTTP
// only, the rules are services/sends/card-page/thanks.ts. A form (the page's, without JavaScript) is answered as a person
// reads it: 303 back to the card with `?thanks=sent`, or a small page in the send's language with the refusal's
// status; JSON (the page's script, or another client) in the API's envelope: 201 `{ sent, remaining }`, 400
// `invalid_parameter`, 429 `thanks_limit`, 404 `not_found`.
import type { Context } from 'koa';
import { z } from 'zod';
import { invalidParameter, notFound, thanksLimit } from '../../lib/errors.ts';
import { stringsFor } from '../../services/i18n/locale.ts';
import { sayThanks } from '../../services/sends/card-page/thanks.ts';
import { readFormBody, readJsonBody } from '../http/body.ts';
import { defineFile, type FileResult } from '../http/route.ts';
import { successBody } from '../http/envelope.ts';

const PageParams = z.object({ pageId: z.string() });
// 1,000 characters of four UTF-8 bytes each, percent-encoded, with room to spare.
const BODY_LIMIT_BYTES = 16_384;
const NOT_FOUND = 'This eCard does not exist, or it has not been sent.';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A refusal of a form post: one sentence and the way back to the card, in the send's language. */
function refusalPage(pageId: string, locale: string, key: 'thanksInvalid' | 'thanksLimit', status: number): FileResult {
  const { lang, dir, t } = stringsFor(locale);
  const body =
    `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${escapeHtml(t('sayThanks'))}</title></head><body><p>${escapeHtml(t(key))}</p>` +
    `<p><a href="/e/${encodeURIComponent(pageId)}">${escapeHtml(t('backToCard'))}</a></p></body></html>`;
  return { status, type: 'text/html; charset=utf-8', body };
}

const isJson = (koa: Context) => Boolean(koa.request.is('application/json', '+json'));

export const thanksRoutes = [
  defineFile({
    method: 'post',
    path: '/e/:pageId/thanks',
    params: PageParams,
    async handler({ params }, { services, koa }) {
      koa.set('Cache-Control', 'no-store');
      koa.set('Referrer-Policy', 'no-referrer');
      koa.set('Content-Security-Policy', "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
      const json = isJson(koa);
      const body = json ? await readJsonBody(koa, BODY_LIMIT_BYTES) : await readFormBody(koa, BODY_LIMIT_BYTES);
      const result = await sayThanks(services, params.pageId, body.message);
      if (json) {
        if (result.outcome === 'not_found') throw notFound(NOT_FOUND);
        const { t } = stringsFor(result.locale);
        if (result.outcome === 'invalid') throw invalidParameter(t('thanksInvalid'));
        if (result.outcome === 'limit') throw thanksLimit(t('thanksLimit'));
        return { status: 201, type: 'application/json', body: successBody('standard', { sent: true, remaining: result.remaining }) };
      }
      if (result.outcome === 'not_found') return { status: 404, type: 'text/plain', body: NOT_FOUND };
      if (result.outcome === 'invalid') return refusalPage(params.pageId, result.locale, 'thanksInvalid', 400);
      if (result.outcome === 'limit') return refusalPage(params.pageId, result.locale, 'thanksLimit', 429);
      return { seeOther: `/e/${params.pageId}?thanks=sent` };
    },
  }),
];
