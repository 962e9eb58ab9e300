import { Writable } from 'node:stream';
import { expect } from 'chai';
import { startApi } from '../../app/runtime.ts';
import { createLogger } from '../../lib/logger.ts';
import { apiClient, expectFailure, expectSuccess, newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { eventually } from '../helpers/eventually.ts';
import { testConfig, testServices, testStack, type TestStack } from '../helpers/stack.ts';

/** A flat failure of send-ecard: `{ success: false, reason }`, no `data`. */
function expectRefusal(res: ApiResponse, status: number, reason: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.deep.include({ success: false, reason });
  expect(res.body).not.to.have.property('data');
}

// 101 merge tags: `#each` over the context inside `#each` over the root runs 101 × 101 = 10,201 times.
const MANY_TAGS = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`t${i}`, 'v']));
const SQUARED = '{{#each this}}{{#each @root}}x{{/each}}{{/each}}';
const EACH_3_DEEP = '{{#each a}}{{#each b}}{{#each c}}x{{/each}}{{/each}}{{/each}}';
const OVER_100_KB = 'a'.repeat(100 * 1024 + 1);

describe('templates cannot reach the service', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let widgetId: number;
  let ecardId: number;
  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models);
    widgetId = (await insertWidget(stack.models, account.accountId)).id;
    ecardId = (await insertEcard(stack.models, account.accountId, widgetId)).id;
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const save = (fields: Record<string, unknown>) => api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'T', ...fields } });
  const preview = (body: Record<string, unknown>, url?: string) => apiClient(url ?? stack, account.liveKey).api('POST', '/ecard/preview', { id: ecardId, ...body });
  const share = (extra: Record<string, unknown>, url?: string) =>
    apiClient(url ?? stack, account.liveKey).api('POST', '/pub/ecard-actions/send-ecard', { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Friend', type: 'ecard_copy_link', ...extra });
  const sendsOf = () => stack.models.Send.count({ where: { account_id: account.accountId } });

  describe('log', () => {
    // The service's own output, captured: its pino lines and whatever reaches the process's stdout and stderr.
    let url: string;
    const captured: string[] = [];
    before(async () => {
      const config = await testConfig({ LOG_LEVEL: 'debug' });
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          captured.push(chunk.toString());
          done();
        },
      });
      const server = await startApi(await testServices(config, { logger: createLogger(config, sink) }), { host: '127.0.0.1' });
      onSuiteEnd(() => server.stop());
      url = server.url;
    });
    async function capturingOutput<T>(work: () => Promise<T>): Promise<T> {
      const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
      const tap = (original: typeof writes.out) => ((chunk: string | Uint8Array, ...rest: never[]) => {
        captured.push(String(chunk));
        return original(chunk, ...rest);
      }) as typeof process.stdout.write;
      process.stdout.write = tap(writes.out);
      process.stderr.write = tap(writes.err);
      try {
        return await work();
      } finally {
        process.stdout.write = writes.out;
        process.stderr.write = writes.err;
      }
    }

    it('{{log}} is refused with 422 invalid_template at save, bulkUpdate, preview and send accept, and the service output stays clean', async () => {
      const before = await sendsOf();
      await capturingOutput(async () => {
        const secret = 'secret-log-text-7b1';
        for (const field of ['header', 'emailSubject', 'details']) {
          expectFailure(await apiClient(url, account.liveKey).api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'L', [field]: `Hi {{log "${secret}"}}` } }), 422, 'invalid_template');
        }
        expectFailure(await apiClient(url, account.liveKey).api('POST', '/ecard/bulkUpdate', { ecardids: [ecardId], fieldName: 'header', fieldValue: `{{log "${secret}" level="error"}}` }), 422, 'invalid_template');
        for (const field of ['header', 'emailSubject', 'details']) {
          expectFailure(await preview({ mergeTags: { who: secret }, overrideProps: { [field]: '{{log who}}' } }, url), 422, 'invalid_template');
        }
        expectFailure(await preview({ overrideProps: { header: `{{#if (log "${secret}")}}x{{/if}}` } }, url), 422, 'invalid_template');
        expectRefusal(await share({ mergeTags: { who: secret }, overrideProps: { details: '<p>{{log who}}</p>' } }, url), 422, 'invalid_template');
        await new Promise((r) => setTimeout(r, 50));
        expect(captured.join('')).not.to.include(secret);
      });
      expect(captured.join('')).to.include('"msg":"request"'); // the capture did see the service's lines
      expect(await sendsOf()).to.equal(before);
      const stored = await stack.models.Ecard.findByPk(ecardId);
      expect(stored!.header ?? '').not.to.include('log');
    });
  });

  describe('partials and decorators', () => {
    it('{{> x}} in a preview\'s overrideProps is 422 invalid_template (not 500), before and after sanitizing', async () => {
      for (const field of ['details', 'header', 'emailSubject']) {
        expectFailure(await preview({ overrideProps: { [field]: 'Hi {{> x}}' } }), 422, 'invalid_template');
      }
      // A dropped script joins what it separated: still refused.
      expectFailure(await preview({ overrideProps: { details: '{<script></script>{> x}}' } }), 422, 'invalid_template');
    });

    it('partials, partial blocks, inline partials and decorators are refused at save', async () => {
      for (const template of ['{{> x}}', '{{#> layout}}y{{/layout}}', '{{#*inline "x"}}y{{/inline}}', '{{* deco}}', '{{> (lookup . "n")}}']) {
        for (const field of ['header', 'details']) expectFailure(await save({ [field]: template }), 422, 'invalid_template');
      }
      expectFailure(await api('POST', '/ecard/bulkUpdate', { ecardids: [ecardId], fieldName: 'details', fieldValue: '<p>{{> x}}</p>' }), 422, 'invalid_template');
    });

    it('{{> x}} in send-ecard overrideProps is a flat 422 at accept; nothing is stored', async () => {
      const before = await sendsOf();
      expectRefusal(await share({ overrideProps: { header: 'Hi {{> x}}' } }), 422, 'invalid_template');
      expectRefusal(await share({ overrideProps: { details: '<p>{{#*inline "a"}}b{{/inline}}</p>' } }), 422, 'invalid_template');
      expect(await sendsOf()).to.equal(before);
    });

    it('what stays allowed: merge tags, #each, #if, #with, lookup', async () => {
      const body = expectSuccess(
        await preview({
          mergeTags: { team: 'Ops', who: 'Bo' },
          overrideProps: { header: '{{#if team}}{{team}}{{/if}} {{#with who}}{{this}}{{/with}} {{lookup . "team"}} {{#each this}}{{@key}}{{/each}} {{team.constructor}}' },
        }),
      ) as { header: string };
      expect(body.header).to.equal('Ops Bo Ops teamwho ');
    });
  });

  describe('bounds', () => {
    it('over 10,000 iterations in one render → 422 template_too_large (preview and accept); 9,900 pass', async () => {
      expectFailure(await preview({ mergeTags: MANY_TAGS, overrideProps: { details: SQUARED } }), 422, 'template_too_large');
      // Every iteration counts, outer ones too: 99 + 99 × 99 = 9,900.
      const fewer = Object.fromEntries(Object.entries(MANY_TAGS).slice(0, 99));
      const ok = expectSuccess(await preview({ mergeTags: fewer, overrideProps: { details: SQUARED } })) as { html: string };
      expect(ok.html).to.have.length(99 * 99);
      const before = await sendsOf();
      expectRefusal(await share({ mergeTags: MANY_TAGS, overrideProps: { details: SQUARED } }), 422, 'template_too_large');
      expect(await sendsOf()).to.equal(before);
    });

    it('#each nested 3 deep → 422 template_too_large at save, preview and accept', async () => {
      expectFailure(await save({ details: EACH_3_DEEP }), 422, 'template_too_large');
      expectFailure(await preview({ overrideProps: { header: EACH_3_DEEP } }), 422, 'template_too_large');
      expectRefusal(await share({ overrideProps: { emailSubject: EACH_3_DEEP } }), 422, 'template_too_large');
      expectSuccess(await save({ details: '{{#each a}}{{#each b}}x{{/each}}{{/each}}' }));
    });

    it('a template over 100 KB → 422 template_too_large', async () => {
      expectFailure(await preview({ overrideProps: { details: OVER_100_KB } }), 422, 'template_too_large');
      expectRefusal(await share({ overrideProps: { details: OVER_100_KB } }), 422, 'template_too_large');
    });

    it('output over 1 MB → 422 template_too_large, before it is built', async () => {
      const repeated = '{{v}}'.repeat(2_100);
      expectFailure(await preview({ mergeTags: { v: 'x'.repeat(500) }, overrideProps: { details: repeated } }), 422, 'template_too_large');
    });

    it('in the worker, a saved template over the bounds with the send\'s merge tags fails that recipient with template_too_large', async () => {
      const card = expectSuccess(await save({ details: SQUARED })) as { id: number };
      const res = await share({ ecardId: card.id, mergeTags: MANY_TAGS });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const send = await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } });
      const recipient = await eventually(
        () => stack.models.SendRecipient.findOne({ where: { send_id: send!.id } }),
        (r) => r?.status !== 'pending',
        15_000,
      );
      expect(recipient!.status).to.equal('failed');
      expect(recipient!.error).to.match(/^template_too_large/);
    });
  });
});
