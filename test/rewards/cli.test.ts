import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../lib/config.ts';
import { loadDataKeys } from '../../lib/data-key.ts';
import { addCodes } from '../../services/rewards/codes.ts';
import { aadOf, codeHmacs } from '../../services/rewards/crypto.ts';
import { open } from '../../lib/sealing.ts';
import { newAccount } from '../helpers/api.ts';
import { cardsvc, type CommandResult } from '../helpers/cli.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { TEST_REWARDS_KEY, testModels } from '../helpers/stack.ts';

const keys = loadDataKeys(loadConfig(baseEnv({ REWARDS_ENCRYPTION_KEY: TEST_REWARDS_KEY })))!;
const env = (extra: Record<string, string> = {}) => baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir(), REWARDS_ENCRYPTION_KEY: TEST_REWARDS_KEY, ...extra });

const ok = (result: CommandResult): Record<string, unknown> => {
  expect(result.code, result.stderr).to.equal(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
};

/** A refusal: exit 1, one line on stderr, one `{ ok: false, code }` object on stdout; returns the message. */
const refused = (result: CommandResult, code: string): string => {
  expect(result.code, result.stderr).to.equal(1);
  expect(result.stderr.trim().split('\n')).to.have.length(1);
  const body = JSON.parse(result.stdout) as { ok: boolean; code: string; message: string };
  expect(body).to.deep.include({ ok: false, code });
  return body.message;
};

function codesFile(lines: string[]): string {
  const file = join(tempDir(), 'codes.csv');
  writeFileSync(file, lines.join('\n'));
  return file;
}

describe('cardsvc rewards', function () {
  this.timeout(90_000);

  describe('settings', () => {
    it('shows a new account the defaults, applies changes, and keeps the sandbox apart', async () => {
      const models = await testModels();
      const account = await newAccount(models);
      const id = String(account.accountId);
      const defaults = {
        provider_mode: 'manual', provider: null, currency: 'USD', min_amount: 1, max_amount: 500, velocity_limits_enabled: true, claim_expiry_days: 365,
      };
      expect(ok(await cardsvc(['rewards', 'settings', '--account', id, '--json'], env()))).to.deep.equal(defaults);
      expect(await models.GiftSettings.count({ where: { account_id: account.accountId } })).to.equal(0);

      const changed = await cardsvc(['rewards', 'settings', '--account', id, '--mode', 'provider', '--min', '5', '--max', '250.50', '--velocity', 'off', '--expiry-days', '30', '--json'], env());
      expect(ok(changed)).to.deep.equal({ provider_mode: 'provider', provider: null, currency: 'USD', min_amount: 5, max_amount: 250.5, velocity_limits_enabled: false, claim_expiry_days: 30 });
      expect(changed.stderr).to.match(/no provider is configured for live accounts \(REWARDS_PROVIDER\)/);
      const row = await models.GiftSettings.findByPk(account.accountId);
      expect(row?.get({ plain: true })).to.deep.include({ provider_mode: 'provider', min_cents: 500, max_cents: 25_050, claim_expiry_days: 30 });
      expect(Boolean(row?.velocity_limits_enabled)).to.equal(false);

      // Only what is given changes; the provider shows once one is configured.
      const shown = ok(await cardsvc(['rewards', 'settings', '--account', id, '--velocity', 'on', '--json'], env({ REWARDS_PROVIDER: 'simulated' })));
      expect(shown).to.deep.include({ provider_mode: 'provider', provider: 'simulated', min_amount: 5, max_amount: 250.5, velocity_limits_enabled: true, claim_expiry_days: 30 });

      // The sandbox is its own account, always on the simulated provider in provider mode.
      expect(ok(await cardsvc(['rewards', 'settings', '--account', id, '--sandbox', '--json'], env()))).to.deep.equal(defaults);
      expect(ok(await cardsvc(['rewards', 'settings', '--account', id, '--sandbox', '--mode', 'provider', '--json'], env()))).to.deep.include({ provider_mode: 'provider', provider: 'simulated' });
      expect((await models.GiftSettings.findByPk(account.sandboxAccountId))?.provider_mode).to.equal('provider');
      expect(ok(await cardsvc(['rewards', 'settings', '--account', id, '--json'], env()))).to.deep.include({ min_amount: 5, max_amount: 250.5 });

      // Without --json: one `key: value` a line.
      const text = await cardsvc(['rewards', 'settings', '--account', id], env());
      expect(text.code).to.equal(0);
      expect(text.stdout).to.include('min_amount: 5\n').and.include('provider_mode: provider\n');
    });

    it('refuses bounds out of order and bad flags with one line and exit 1, changing nothing', async () => {
      const models = await testModels();
      const account = await newAccount(models);
      const id = String(account.accountId);
      const message = refused(await cardsvc(['rewards', 'settings', '--account', id, '--min', '600', '--json'], env()), 'invalid_value');
      expect(message).to.match(/min ≤ max \(got min 600, max 500\)/);
      refused(await cardsvc(['rewards', 'settings', '--account', id, '--min', '50', '--max', '20', '--json'], env()), 'invalid_value');
      refused(await cardsvc(['rewards', 'settings', '--account', id, '--min', '0', '--json'], env()), 'invalid_value');
      refused(await cardsvc(['rewards', 'settings', '--account', id, '--expiry-days', '0', '--json'], env()), 'invalid_value');
      const usage: string[][] = [
        ['--mode', 'auto'],
        ['--velocity', 'maybe'],
        ['--max', '10.123'],
        ['--min', '-5'],
        ['--expiry-days', '1.5'],
        ['--bogus', 'x'],
        [],
      ];
      // Usage errors stop before the database is opened: these run side by side.
      const results = await Promise.all(usage.map((args) => cardsvc(['rewards', 'settings', ...(args.length ? ['--account', id, ...args] : []), '--json'], env())));
      for (const result of results) refused(result, 'usage');
      expect(refused(await cardsvc(['rewards', 'settings', '--account', '999999999', '--json'], env()), 'account_not_found')).to.match(/999999999/);
      expect(await models.GiftSettings.count({ where: { account_id: account.accountId } })).to.equal(0);
    });
  });

  describe('set-rule', () => {
    it('adds, replaces and removes spend rules per period; the sandbox has its own', async () => {
      const models = await testModels();
      const account = await newAccount(models);
      const id = String(account.accountId);
      const rule = (period: string, limit: string, sandbox = false) =>
        cardsvc(['rewards', 'set-rule', '--account', id, ...(sandbox ? ['--sandbox'] : []), '--period', period, '--limit', limit, '--json'], env());

      expect(ok(await rule('month', '1000.50'))).to.deep.equal({ rules: [{ period: 'month', limit: 1000.5 }] });
      expect(ok(await rule('day', '100'))).to.deep.equal({ rules: [{ period: 'day', limit: 100 }, { period: 'month', limit: 1000.5 }] });
      const replaced = await rule('day', '150');
      expect(ok(replaced)).to.deep.equal({ rules: [{ period: 'day', limit: 150 }, { period: 'month', limit: 1000.5 }] });
      expect(replaced.stderr).to.match(/at most 150 USD a day/);
      expect(await models.GiftRule.count({ where: { account_id: account.accountId, period: 'day' } })).to.equal(1);
      const removed = await rule('day', '0');
      expect(ok(removed)).to.deep.equal({ rules: [{ period: 'month', limit: 1000.5 }] });
      expect(removed.stderr).to.match(/Removed the day spend rule/);
      expect(ok(await rule('week', '0'))).to.deep.equal({ rules: [{ period: 'month', limit: 1000.5 }] });

      expect(ok(await rule('week', '20', true))).to.deep.equal({ rules: [{ period: 'week', limit: 20 }] });
      expect(await models.GiftRule.count({ where: { account_id: account.sandboxAccountId } })).to.equal(1);
      expect(await models.GiftRule.count({ where: { account_id: account.accountId } })).to.equal(1);
      expect(ok(await rule('month', '0'))).to.deep.equal({ rules: [] });

      const text = await cardsvc(['rewards', 'set-rule', '--account', id, '--period', 'day', '--limit', '5'], env());
      expect(text.stdout).to.equal('day\t5 USD\n');
    });

    it('refuses a bad period or limit', async () => {
      const models = await testModels();
      const account = await newAccount(models);
      const id = String(account.accountId);
      const cases = [['--period', 'year', '--limit', '5'], ['--period', 'day', '--limit', '-1'], ['--period', 'day', '--limit', '1.001'], ['--period', 'day'], ['--limit', '5']];
      const results = await Promise.all(cases.map((args) => cardsvc(['rewards', 'set-rule', '--account', id, ...args, '--json'], env())));
      for (const result of results) refused(result, 'usage');
      expect(await models.GiftRule.count({ where: { account_id: account.accountId } })).to.equal(0);
    });
  });

  describe('add-codes', () => {
    it('adds valid lines encrypted, counts duplicates (stored and in the file) and names invalid lines', async () => {
      const models = await testModels();
      const account = await newAccount(models);
      const id = String(account.accountId);
      const add = (file: string, ...extra: string[]) => cardsvc(['rewards', 'add-codes', '--account', id, '--brand', ' Acme ', '--denomination', '25', '--file', file, ...extra, '--json'], env());

      expect(ok(await add(codesFile(['PRE-EXISTING-CODE-1'])))).to.deep.equal({ added: 1, duplicates: 0, invalid_lines: [] });
      const lines = [
        'GIFT-AAAA-1111-BBBB', //                  1 added
        ' gift-cccc-2222-dddd , 1234 , 2031-12-31', // 2 added, PIN and expiry
        'SHORT1,2030-01-31', //                    3 added, two fields with a date: the expiry
        '', //                                     4 blank
        'ABCD 1234 EFGH,pin-9', //                 5 added, two fields: the PIN
        'gift aaaa 1111 bbbb', //                  6 line 1 again (case, spaces for dashes): duplicate
        'pre existing code 1', //                  7 stored already: duplicate
        'BAD-EXPIRY-1,9999,2030-02-30', //         8 not a date
        ',1234', //                                9 no code
        '   ', //                                  10 blank
        '---,1', //                                11 no code once normalized
        'A,B,2030-01-01,D', //                     12 too many fields
        'CODE-X,pin,tomorrow', //                  13 not a date
        'CODE-Y,,31/12/2030', //                   14 not YYYY-MM-DD
      ];
      const result = await add(codesFile(lines));
      expect(ok(result)).to.deep.equal({ added: 4, duplicates: 2, invalid_lines: [8, 9, 11, 12, 13, 14] });
      expect(result.stderr).to.match(/Added 4 code\(s\) to Acme 25 on live account \d+ \(2 duplicate\(s\) skipped; invalid lines: 8, 9, 11, 12, 13, 14\)/);
      for (const secret of ['GIFT-AAAA', 'gift-cccc', '1234', 'pin-9', 'SHORT1']) expect(result.stdout + result.stderr).to.not.include(secret);

      const rows = await models.GiftCode.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
      expect(rows).to.have.length(5);
      const aad = aadOf(account.accountId, 'manual:Acme:25');
      const seen = rows.map((r) => {
        expect(r).to.deep.include({ brand: 'Acme', denomination_cents: 2500, currency: 'USD', key_id: keys.current.id, order_id: null });
        const code = open(keys, aad, { ciphertext: r.code_ciphertext, keyId: r.key_id });
        expect(r.code_ciphertext).to.not.equal(code).and.not.include(code);
        expect(r.code_hmac).to.equal(codeHmacs(keys, code)[0]);
        return {
          code,
          pin: r.pin_ciphertext === null ? null : open(keys, aad, { ciphertext: r.pin_ciphertext, keyId: r.key_id }),
          last4: r.code_last4,
          expires: r.expires_on,
        };
      });
      expect(seen).to.deep.equal([
        { code: 'PRE-EXISTING-CODE-1', pin: null, last4: 'ODE1', expires: null },
        { code: 'GIFT-AAAA-1111-BBBB', pin: null, last4: 'BBBB', expires: null },
        { code: 'gift-cccc-2222-dddd', pin: '1234', last4: 'DDDD', expires: '2031-12-31' },
        { code: 'SHORT1', pin: null, last4: null, expires: '2030-01-31' },
        { code: 'ABCD 1234 EFGH', pin: 'pin-9', last4: 'EFGH', expires: null },
      ]);
      // Another pool or account does not open a row: the AAD binds it to its account and pool.
      expect(() => open(keys, aadOf(account.accountId, 'manual:Acme:50'), { ciphertext: rows[1]!.code_ciphertext, keyId: rows[1]!.key_id })).to.throw();

      // The same file again adds nothing (its 5 stored codes and the in-file repeat are duplicates); the same code in another pool is still a duplicate for the account.
      expect(ok(await add(codesFile(lines)))).to.deep.equal({ added: 0, duplicates: 6, invalid_lines: [8, 9, 11, 12, 13, 14] });
      const other = await cardsvc(['rewards', 'add-codes', '--account', id, '--brand', 'Other', '--denomination', '10.50', '--file', codesFile(['GIFTAAAA1111BBBB', 'OTHER-CODE-0001']), '--json'], env());
      expect(ok(other)).to.deep.equal({ added: 1, duplicates: 1, invalid_lines: [] });
      expect((await models.GiftCode.findOne({ where: { account_id: account.accountId, brand: 'Other' } }))?.denomination_cents).to.equal(1050);

      // Without --json: readable lines.
      const text = await cardsvc(['rewards', 'add-codes', '--account', id, '--brand', 'Acme', '--denomination', '25', '--file', codesFile(['x,y,z'])], env());
      expect(text.stdout).to.equal('added: 0\nduplicates: 0\ninvalid_lines: 1\n');
    });

    it('writes to the sandbox account with --sandbox, in the account\'s currency, leaving the live pool alone', async () => {
      const models = await testModels();
      const account = await newAccount(models);
      const id = String(account.accountId);
      const file = codesFile(['SANDBOX-CODE-0001', 'SANDBOX-CODE-0002,4321']);
      ok(await cardsvc(['rewards', 'add-codes', '--account', id, '--brand', 'Acme', '--denomination', '25', '--file', codesFile(['SANDBOX-CODE-0001']), '--json'], env()));
      const sandboxed = await cardsvc(['rewards', 'add-codes', '--account', id, '--sandbox', '--brand', 'Acme', '--denomination', '25', '--file', file, '--json'], env());
      // Duplicates are per account: the live account's copy of a code does not stop the sandbox's.
      expect(ok(sandboxed)).to.deep.equal({ added: 2, duplicates: 0, invalid_lines: [] });
      expect(sandboxed.stderr).to.match(/on sandbox account/);
      expect(await models.GiftCode.count({ where: { account_id: account.accountId } })).to.equal(1);
      const rows = await models.GiftCode.findAll({ where: { account_id: account.sandboxAccountId }, order: [['id', 'ASC']] });
      const aad = aadOf(account.sandboxAccountId, 'manual:Acme:25');
      expect(rows.map((r) => open(keys, aad, { ciphertext: r.code_ciphertext, keyId: r.key_id }))).to.deep.equal(['SANDBOX-CODE-0001', 'SANDBOX-CODE-0002']);
      expect(() => open(keys, aadOf(account.accountId, 'manual:Acme:25'), { ciphertext: rows[0]!.code_ciphertext, keyId: rows[0]!.key_id })).to.throw();

      // The currency is the account's setting at upload time.
      await models.GiftSettings.upsert({ account_id: account.accountId, provider_mode: 'manual', currency: 'EUR', min_cents: 100, max_cents: 50_000, velocity_limits_enabled: true, claim_expiry_days: 365 });
      ok(await cardsvc(['rewards', 'add-codes', '--account', id, '--brand', 'Euro', '--denomination', '20', '--file', codesFile(['EURO-CODE-00001']), '--json'], env()));
      expect((await models.GiftCode.findOne({ where: { account_id: account.accountId, brand: 'Euro' } }))?.currency).to.equal('EUR');
    });

    it('refuses a bad brand, denomination or file, and names the missing key cleanly', async () => {
      const models = await testModels();
      const account = await newAccount(models);
      const id = String(account.accountId);
      const file = codesFile(['REFUSED-CODE-0001']);
      const add = (args: string[], extra: Record<string, string> = {}) => cardsvc(['rewards', 'add-codes', '--account', id, ...args, '--json'], env(extra));
      expect(refused(await add(['--brand', 'Ac:me', '--denomination', '25', '--file', file]), 'invalid_value')).to.match(/brand/);
      refused(await add(['--brand', '   ', '--denomination', '25', '--file', file]), 'invalid_value');
      refused(await add(['--brand', 'x'.repeat(101), '--denomination', '25', '--file', file]), 'invalid_value');
      expect(refused(await add(['--brand', 'Acme', '--denomination', '0', '--file', file]), 'invalid_value')).to.match(/denomination/);
      const usage = [
        ['--brand', 'Acme', '--denomination', '2.555', '--file', file],
        ['--brand', 'Acme', '--denomination', '25', '--file', join(tempDir(), 'missing.csv')],
        ['--brand', 'Acme', '--denomination', '25'],
        ['--denomination', '25', '--file', file],
      ];
      for (const result of await Promise.all(usage.map((args) => add(args)))) refused(result, 'usage');

      // No key anywhere (no variable, an empty DATA_DIR): one clean line, nothing written.
      const noKey = await cardsvc(['rewards', 'add-codes', '--account', id, '--brand', 'Acme', '--denomination', '25', '--file', file, '--json'], baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir() }));
      expect(refused(noKey, 'error')).to.match(/No data encryption key is configured \(DATA_ENCRYPTION_KEY or DATA_DIR\/secrets\/rewards\.key\)/);
      expect(await models.GiftCode.count({ where: { account_id: account.accountId } })).to.equal(0);
    });

    it('adds a large file in chunks, and two uploads of it at once add each code once', async () => {
      const models = await testModels();
      const account = await newAccount(models);
      const config = loadConfig(baseEnv({ DATABASE_URL: suiteDatabaseUrl, REWARDS_ENCRYPTION_KEY: TEST_REWARDS_KEY }));
      const ctx = { config, models, dataKeys: keys };
      const text = Array.from({ length: 1200 }, (_, i) => `BULK-${account.accountId}-${String(i).padStart(6, '0')}`).join('\n');
      const results = await Promise.all([
        addCodes(ctx, account.accountId, { brand: 'Bulk', denominationCents: 500, text }),
        addCodes(ctx, account.accountId, { brand: 'Bulk', denominationCents: 500, text }),
      ]);
      expect(results[0].added + results[1].added).to.equal(1200);
      expect(results[0].duplicates + results[1].duplicates).to.equal(1200);
      expect(await models.GiftCode.count({ where: { account_id: account.accountId } })).to.equal(1200);
    });
  });
});
