// The console's API keys page: the current account's keys (live, or the sandbox in sandbox mode) with last use and
// status; create (the key shown once), rename and rescope over the 12 areas, rotate with a grace period (the new key
// shown once), revoke. The same services and presenter as the console API's keys group; a full-access key (created,
// or rotated) needs step-up.
import Router from '@koa/router';
import { invalidValue, keyRevoked } from '../../../lib/errors.ts';
import { AREAS, type Area, type Level } from '../../../models/ApiKey.ts';
import { createApiKey, findAccountKey, keyMode, keyNeedsStepUp, listAccountKeys, revokeKey, rotateKey, updateKey } from '../../../services/api-keys.ts';
import type { ApiServices, ApiState } from '../../context.ts';
import { parseInput } from '../../validation.ts';
import { presentConsoleKey } from '../keys/present.ts';
import { CreateKeyBody, KeyIdParams, RotateKeyBody, UpdateKeyBody } from '../keys/schema.ts';
import { renderPage } from './render.ts';
import { CONSOLE_PREFIX, pageForm, pageStepUp, seeOther, signedIn } from './router.ts';

const KEYS = `${CONSOLE_PREFIX}/keys`;
const LEVELS: Level[] = ['none', 'view', 'manage'];
const NOTICES: Record<string, string> = { updated: 'The key was saved.', revoked: 'The key was revoked.' };

/** The area selects of a form (`perm_<area>`), each with the level chosen. */
function areaRows(permissions: Partial<Record<Area, Level>>) {
  return AREAS.map((area) => ({
    area,
    label: area.replace('_', ' '),
    levels: LEVELS.map((level) => ({ level, selected: (permissions[area] ?? 'none') === level })),
  }));
}

function levelsOf(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(AREAS.map((area) => [area, form[`perm_${area}`] ?? 'none']));
}

export function consoleKeyPagesRouter(services: ApiServices): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: CONSOLE_PREFIX });
  const keyId = (params: unknown) => parseInput(KeyIdParams, params, 'path').id;

  router.get(
    '/keys',
    signedIn(services, async (ctx, page) => {
      const now = services.now();
      const keys = (await listAccountKeys(services.models, page.account.id)).map((key) => {
        const shown = presentConsoleKey(key, page.account, now);
        return { ...shown, active: shown.status !== 'revoked' };
      });
      const done = typeof ctx.query.done === 'string' ? NOTICES[ctx.query.done] : undefined;
      renderPage(ctx, { title: 'API keys', view: 'keys', ...page, keys, notice: done });
    }),
  );
  router.get(
    '/keys/new',
    signedIn(services, async (ctx, page) => {
      const name = typeof ctx.query.name === 'string' ? ctx.query.name.slice(0, 100) : '';
      renderPage(ctx, { title: 'New API key', view: 'keys-new', ...page, name, full: ctx.query.access === 'full', areas: areaRows({}) });
    }),
  );
  router.post(
    '/keys',
    signedIn(services, async (ctx, page) => {
      const form = await pageForm(services, ctx, page);
      const fullAccess = form.access === 'full';
      const body = parseInput(CreateKeyBody, { name: form.name ?? '', ...(fullAccess ? { full_access: true } : { permissions: levelsOf(form) }) }, 'body');
      // Step-up comes back to the form (access full, the name kept): the owner submits it again.
      const back = fullAccess ? `${KEYS}/new?access=full&name=${encodeURIComponent(body.name ?? '')}` : `${KEYS}/new?name=${encodeURIComponent(body.name ?? '')}`;
      if (keyNeedsStepUp({ fullAccess, levels: body.permissions }) && !pageStepUp(services, ctx, page, back)) return;
      const created = await createApiKey(services.models, { accountId: page.account.id, mode: keyMode(page.account), name: body.name ?? '', fullAccess, levels: body.permissions ?? {} });
      const key = presentConsoleKey(await findAccountKey(services.models, page.account.id, created.keyId), page.account, services.now());
      renderPage(ctx, { title: 'Your new API key', view: 'keys-secret', ...page, secret: created.key, key, rotated: false });
    }),
  );
  router.get(
    '/keys/:id',
    signedIn(services, async (ctx, page) => {
      const now = services.now();
      const key = presentConsoleKey(await findAccountKey(services.models, page.account.id, keyId(ctx.params)), page.account, now);
      if (key.status === 'revoked') throw keyRevoked(`API key ${key.id} is revoked`);
      renderPage(ctx, { title: `API key ${key.name || `…${key.last4}`}`, view: 'keys-edit', ...page, key, areas: areaRows(key.full_access ? {} : key.permissions) });
    }),
  );
  router.post(
    '/keys/:id',
    signedIn(services, async (ctx, page) => {
      const id = keyId(ctx.params);
      const form = await pageForm(services, ctx, page);
      // The page's form sends both; "keep full access" leaves the scopes alone.
      const keep = form.access === 'full';
      const body = parseInput(UpdateKeyBody, { name: form.name ?? '', ...(keep ? {} : { permissions: levelsOf(form) }) }, 'body');
      const old = await findAccountKey(services.models, page.account.id, id);
      if (keep && !old.full_access) throw invalidValue('A scoped key cannot become full access: create a new full-access key');
      if (keyNeedsStepUp({ fullAccess: false, levels: body.permissions }) && !pageStepUp(services, ctx, page, `${KEYS}/${id}`)) return;
      await updateKey(services.models, page.account.id, id, { name: body.name, levels: body.permissions }, services.now());
      seeOther(ctx, `${KEYS}?done=updated`);
    }),
  );
  router.post(
    '/keys/:id/rotate',
    signedIn(services, async (ctx, page) => {
      const id = keyId(ctx.params);
      const form = await pageForm(services, ctx, page);
      const grace = /^\d{1,7}$/.test(form.grace_seconds ?? '') ? Number(form.grace_seconds) : form.grace_seconds;
      const body = parseInput(RotateKeyBody, { grace_seconds: grace ?? 0 }, 'body');
      const old = await findAccountKey(services.models, page.account.id, id);
      if (keyNeedsStepUp({ fullAccess: old.full_access, levels: old.permissions }) && !pageStepUp(services, ctx, page, `${KEYS}/${id}`)) return;
      const now = services.now();
      const created = await rotateKey(services.models, id, body?.grace_seconds ?? 0, now, page.account.id);
      const [key, replaced] = await Promise.all([findAccountKey(services.models, page.account.id, created.keyId), findAccountKey(services.models, page.account.id, id)]);
      renderPage(ctx, {
        title: 'Your new API key',
        view: 'keys-secret',
        ...page,
        secret: created.key,
        key: presentConsoleKey(key, page.account, now),
        rotated: true,
        replaced: presentConsoleKey(replaced, page.account, now),
      });
    }),
  );
  router.post(
    '/keys/:id/revoke',
    signedIn(services, async (ctx, page) => {
      const id = keyId(ctx.params);
      await pageForm(services, ctx, page);
      await revokeKey(services.models, id, services.now(), page.account.id);
      seeOther(ctx, `${KEYS}?done=revoked`);
    }),
  );
  return router;
}
