import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { verifySignature } from '../../lib/signing.ts';
import { accountSecret, encryptPlaintextSecrets } from '../../services/webhooks/secrets.ts';
import { expectSuccess, newAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { extraApp } from '../helpers/stack.ts';
import { hookPath, webhookContext } from '../helpers/webhooks.ts';

describe('webhooks: signing secrets at rest', function () {
  this.timeout(60_000);
  const ctx = webhookContext();

  const storedRow = async (accountId: number) =>
    (await ctx.stack.models.sequelize.query<{ secret: string | Buffer; previous_secret: string | Buffer | null }>(
      'SELECT secret, previous_secret FROM webhook_secrets WHERE account_id = :accountId',
      { type: QueryTypes.SELECT, plain: true, replacements: { accountId } },
    ))!;
  const stored = async (accountId: number) => {
    const row = await storedRow(accountId);
    return `${String(row.secret)} ${String(row.previous_secret)}`;
  };
  const plaintextSecret = (n: string) => `whsec_${n.repeat(43).slice(0, 43)}`;

  it('a new secret is stored sealed: its column does not contain it', async () => {
    const { secret } = await accountSecret(ctx.stack.services, ctx.account.accountId);
    expect(secret).to.match(/^whsec_[0-9A-Za-z]{43}$/);
    const column = await stored(ctx.account.accountId);
    expect(column).to.not.include(secret);
    expect(column).to.not.include(secret.slice(6));
  });

  it('a plaintext secret from before is sealed when an API starts, once, and deliveries still verify with it and the previous one', async () => {
    const [current, previous] = [plaintextSecret('a1'), plaintextSecret('b2')];
    await accountSecret(ctx.stack.services, ctx.account.accountId);
    await ctx.stack.models.WebhookSecret.update(
      { secret: current, previous_secret: previous, rotated_at: new Date() },
      { where: { account_id: ctx.account.accountId } },
    );
    // Readable in both forms until it is sealed.
    expect((await accountSecret(ctx.stack.services, ctx.account.accountId)).secret).to.equal(current);

    await extraApp();
    const column = await stored(ctx.account.accountId);
    expect(column).to.not.include(current).and.not.include(previous);
    expect(column).to.not.include(current.slice(6)).and.not.include(previous.slice(6));
    // Idempotent: a second start (or the worker's) changes nothing.
    expect(await encryptPlaintextSecrets(ctx.stack.services)).to.equal(0);
    expect(await stored(ctx.account.accountId)).to.equal(column);

    const path = hookPath('sealed');
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
    const test = expectSuccess(await ctx.hooks.api('POST', '/webhook/test', { endpoint_id: endpointId })) as { id: number };
    await eventually(() => ctx.hooks.delivery(test.id), (d) => d.status === 'Delivered');
    const request = ctx.receiver.at(path).at(-1)!;
    const header = request.headers['x-svc-signature'] as string;
    expect(verifySignature(header, request.body, [current])).to.equal(true);
    expect(verifySignature(header, request.body, [previous])).to.equal(true);
    expect(verifySignature(header, request.body, [plaintextSecret('c3')])).to.equal(false);
  });

  it('a sealed secret moved to another account does not open', async () => {
    await accountSecret(ctx.stack.services, ctx.account.accountId);
    const sealed = await storedRow(ctx.account.accountId);
    const other = (await newAccount(ctx.stack.models, 'free')).accountId;
    await ctx.stack.models.WebhookSecret.create({ account_id: other, secret: String(sealed.secret), previous_secret: null, rotated_at: null });
    let error: unknown;
    await accountSecret(ctx.stack.services, other).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
  });
});
