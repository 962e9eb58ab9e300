// The console's API keys, on the account the session works on (live, or the sandbox in sandbox mode): list (never
// the key), create and rotate (the key shown once), rename and rescope, revoke. The same services as `cardsvc key`.
// A key as powerful as full access (full access, or manage on gift_cards, webhooks, settings or directory) needs
// step-up to be created, rotated, or rescoped to.
import { createApiKey, findAccountKey, keyMode, keyNeedsStepUp, listAccountKeys, revokeKey, rotateKey, STEP_UP_AREAS, updateKey } from '../../../services/api-keys.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { presentConsoleKey as present } from './present.ts';
import { CreatedKey, CreateKeyBody, KeyIdParams, KeyList, Key, RotateKeyBody, RotatedKey, UpdateKeyBody } from './schema.ts';

/** The step-up message of an action on a key as powerful as full access. */
export const POWERFUL_KEY = (action: string) => `${action} a key with full access or manage on ${STEP_UP_AREAS.join(', ')}`;

export const consoleKeyRoutes = [
  defineSessionRoute({
    method: 'get',
    role: 'admin',
    path: '/keys',
    summary: 'The API keys of the current account (live or sandbox), with last use and revocation; never a key',
    response: KeyList,
    async handler(_input, { services, account }) {
      const now = services.now();
      return { keys: (await listAccountKeys(services, account.id)).map((key) => present(key, account, now)) };
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'admin',
    path: '/keys',
    audit: 'keys.create',
    summary: 'Creates a key (full access needs step-up); the key is shown only in this answer',
    body: CreateKeyBody,
    response: CreatedKey,
    async handler({ body }, { services, account, requireStepUp }) {
      const fullAccess = body.full_access === true;
      if (keyNeedsStepUp({ fullAccess, levels: body.permissions })) requireStepUp({ action: POWERFUL_KEY('Creating') });
      const created = await createApiKey(services, { accountId: account.id, mode: keyMode(account), name: body.name ?? '', fullAccess, levels: body.permissions ?? {} });
      const key = await findAccountKey(services, account.id, created.keyId);
      return { key: created.key, api_key: present(key, account, services.now()) };
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'admin',
    path: '/keys/:id',
    audit: 'keys.update',
    summary: 'Renames a key and/or replaces its scopes (unlisted areas: none; a full-access key becomes scoped)',
    params: KeyIdParams,
    body: UpdateKeyBody,
    response: Key,
    async handler({ params, body }, { services, account, requireStepUp }) {
      if (keyNeedsStepUp({ fullAccess: false, levels: body.permissions })) requireStepUp({ action: POWERFUL_KEY('Giving') });
      const key = await updateKey(services, account.id, params.id, { name: body.name, levels: body.permissions }, services.now());
      return present(key, account, services.now());
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'admin',
    path: '/keys/:id/rotate',
    audit: 'keys.rotate',
    summary: 'A new key with the same name and scopes, shown only now; the old one stops after grace_seconds',
    params: KeyIdParams,
    body: RotateKeyBody,
    response: RotatedKey,
    async handler({ params, body }, { services, account, requireStepUp }) {
      const old = await findAccountKey(services, account.id, params.id);
      if (keyNeedsStepUp({ fullAccess: old.full_access, levels: old.permissions })) requireStepUp({ action: POWERFUL_KEY('Rotating') });
      const now = services.now();
      const created = await rotateKey(services, params.id, body?.grace_seconds ?? 0, now, account.id);
      const [key, replaced] = await Promise.all([findAccountKey(services, account.id, created.keyId), findAccountKey(services, account.id, params.id)]);
      return { key: created.key, api_key: present(key, account, now), replaced: present(replaced, account, now) };
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'admin',
    path: '/keys/:id/revoke',
    audit: 'keys.revoke',
    summary: 'Revokes a key at once (every API process within 5 seconds)',
    params: KeyIdParams,
    response: Key,
    async handler({ params }, { services, account }) {
      const now = services.now();
      const key = await revokeKey(services, params.id, now, account.id);
      return present(key, account, now);
    },
  }),
];
