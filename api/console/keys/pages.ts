// The console's API keys page: the current account's keys (live, or the sandbox in sandbox mode) with last use and
// status; create (the key shown once), rename and rescope over the 14 areas, rotate with a grace period (the new key
// shown once), revoke. The same services and presenter as the console API's keys group; a full-access key (created,
// or rotated) needs step-up.
import { invalidValue, keyRevoked } from '../../../lib/errors.ts';
import { AREAS, levelsOf, type Area, type Level } from '../../../models/ApiKey.ts';
import { createApiKey, findAccountKey, keyMode, keyNeedsStepUp, listAccountKeys, revokeKey, rotateKey, updateKey } from '../../../services/api-keys.ts';
import { definePage, page, seeOther } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { presentConsoleKey } from './present.ts';
import { CreateKeyBody, KeyIdParams, RotateKeyBody, UpdateKeyBody } from './schema.ts';

const KEYS = `${CONSOLE_PREFIX}/keys`;
const NOTICES: Record<string, string> = { updated: 'The key was saved.', revoked: 'The key was revoked.' };

/** The area selects of a form (`perm_<area>`), each with the level chosen. */
function areaRows(permissions: Partial<Record<Area, Level>>) {
  return AREAS.map((area) => ({
    area,
    label: area.replace('_', ' '),
    levels: levelsOf(area).map((level) => ({ level, selected: (permissions[area] ?? 'none') === level })),
  }));
}

function formLevels(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(AREAS.map((area) => [area, form[`perm_${area}`] ?? 'none']));
}

const fullAccessOf = (form: Record<string, string>) => form.access === 'full';

export const keyPageRoutes = [
  definePage({
    method: 'get',
    role: 'admin',
    path: '/keys',
    async handler(_input, { services, account, koa }) {
      const now = services.now();
      const keys = (await listAccountKeys(services, account.id)).map((key) => {
        const shown = presentConsoleKey(key, account, now);
        return { ...shown, active: shown.status !== 'revoked' };
      });
      const done = typeof koa.query.done === 'string' ? NOTICES[koa.query.done] : undefined;
      return page({ title: 'API keys', view: 'keys', keys, notice: done });
    },
  }),
  definePage({
    method: 'get',
    role: 'admin',
    path: '/keys/new',
    async handler(_input, { koa }) {
      const name = typeof koa.query.name === 'string' ? koa.query.name.slice(0, 100) : '';
      return page({ title: 'New API key', view: 'keys-new', name, full: koa.query.access === 'full', areas: areaRows({}) });
    },
  }),
  definePage({
    method: 'post',
    role: 'admin',
    path: '/keys',
    audit: 'keys.create',
    body: CreateKeyBody,
    fromForm: (form) => ({ name: form.name ?? '', ...(fullAccessOf(form) ? { full_access: true } : { permissions: formLevels(form) }) }),
    async handler({ body, form }, { services, account, requireStepUp }) {
      const fullAccess = fullAccessOf(form);
      // Step-up comes back to the form (access full, the name kept): the owner submits it again.
      const back = fullAccess ? `${KEYS}/new?access=full&name=${encodeURIComponent(body.name ?? '')}` : `${KEYS}/new?name=${encodeURIComponent(body.name ?? '')}`;
      if (keyNeedsStepUp({ fullAccess, levels: body.permissions })) requireStepUp({ action: 'Creating a key', back });
      const created = await createApiKey(services, { accountId: account.id, mode: keyMode(account), name: body.name ?? '', fullAccess, levels: body.permissions ?? {} });
      const key = presentConsoleKey(await findAccountKey(services, account.id, created.keyId), account, services.now());
      return page({ title: 'Your new API key', view: 'keys-secret', secret: created.key, key, rotated: false });
    },
  }),
  definePage({
    method: 'get',
    role: 'admin',
    path: '/keys/:id',
    params: KeyIdParams,
    async handler({ params }, { services, account }) {
      const now = services.now();
      const key = presentConsoleKey(await findAccountKey(services, account.id, params.id), account, now);
      if (key.status === 'revoked') throw keyRevoked(`API key ${key.id} is revoked`);
      return page({ title: `API key ${key.name || `…${key.last4}`}`, view: 'keys-edit', key, areas: areaRows(key.full_access ? {} : key.permissions) });
    },
  }),
  definePage({
    method: 'post',
    role: 'admin',
    path: '/keys/:id',
    audit: 'keys.update',
    params: KeyIdParams,
    body: UpdateKeyBody,
    // The page's form sends both; "keep full access" leaves the scopes alone.
    fromForm: (form) => ({ name: form.name ?? '', ...(fullAccessOf(form) ? {} : { permissions: formLevels(form) }) }),
    async handler({ params, body, form }, { services, account, requireStepUp }) {
      const id = params.id;
      const old = await findAccountKey(services, account.id, id);
      if (fullAccessOf(form) && !old.full_access) throw invalidValue('A scoped key cannot become full access: create a new full-access key');
      if (keyNeedsStepUp({ fullAccess: false, levels: body.permissions })) requireStepUp({ action: 'Giving a key full power', back: `${KEYS}/${id}` });
      await updateKey(services, account.id, id, { name: body.name, levels: body.permissions }, services.now());
      return seeOther(`${KEYS}?done=updated`);
    },
  }),
  definePage({
    method: 'post',
    role: 'admin',
    path: '/keys/:id/rotate',
    audit: 'keys.rotate',
    params: KeyIdParams,
    body: RotateKeyBody,
    fromForm: (form) => ({ grace_seconds: (/^\d{1,7}$/.test(form.grace_seconds ?? '') ? Number(form.grace_seconds) : form.grace_seconds) ?? 0 }),
    async handler({ params, body }, { services, account, requireStepUp }) {
      const id = params.id;
      const old = await findAccountKey(services, account.id, id);
      if (keyNeedsStepUp({ fullAccess: old.full_access, levels: old.permissions })) requireStepUp({ action: 'Rotating a key', back: `${KEYS}/${id}` });
      const now = services.now();
      const created = await rotateKey(services, id, body?.grace_seconds ?? 0, now, account.id);
      const [key, replaced] = await Promise.all([findAccountKey(services, account.id, created.keyId), findAccountKey(services, account.id, id)]);
      return page({
        title: 'Your new API key',
        view: 'keys-secret',
        secret: created.key,
        key: presentConsoleKey(key, account, now),
        rotated: true,
        replaced: presentConsoleKey(replaced, account, now),
      });
    },
  }),
  definePage({
    method: 'post',
    role: 'admin',
    path: '/keys/:id/revoke',
    audit: 'keys.revoke',
    params: KeyIdParams,
    async handler({ params }, { services, account }) {
      await revokeKey(services, params.id, services.now(), account.id);
      return seeOther(`${KEYS}?done=revoked`);
    },
  }),
];
