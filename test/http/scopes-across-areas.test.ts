// Scopes across areas (decisions.md, Hardening): a key without `directory: view` sees no member's personal data in
// another area's answers: campaign recipients from the directory (CSV rows keep theirs) and the webhook delivery
// log of member-change events (body and echoed responses). Automations' firings are checked in test/automations.
import { expect } from 'chai';
import { apiClient, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { seedMembers } from '../helpers/directory.ts';
import { testReceiver, type Receiver } from '../helpers/receiver.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { hookPath, webhookApi, type DeliveryDetailView, type DeliveryView } from '../helpers/webhooks.ts';

type Json = Record<string, unknown>;

describe('scopes across areas: member data only for keys with directory: view', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let receiver: Receiver;
  let account: TestAccount;
  let counter = 0;

  before(async () => {
    stack = await testStack();
    receiver = await testReceiver();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'enterprise');
  });

  const { api, ok } = apiClient(() => stack);

  it('campaign recipients: a campaigns-only key gets null email and name for directory recipients, CSV rows keep theirs; directory: view sees all', async () => {
    const domain = `scopes${process.pid}-${++counter}.example.com`;
    await seedMembers(stack.models, account.accountId, 2, { domain });
    const members = await stack.models.TeamMember.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Scopes', from_email: 'hr@example.com' } }, account.liveKey)).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] }, account.liveKey);
    await ok('POST', '/campaign/saveRecipients', {
      campaignid: id, directoryMemberIds: members.map((m) => m.id), csvRecipients: [{ email: `csv@${domain}`, first_name: 'Casey', last_name: 'Row' }],
    }, account.liveKey);
    const listed = async (key: string) => {
      const rows = await ok<Json[]>('GET', `/campaign/recipients?campaignid=${id}&perPage=10`, undefined, key);
      return rows.map((r) => [r.source, r.member_id, r.email, r.name]).sort((a, b) => String(a[2]).localeCompare(String(b[2])));
    };

    const campaignsOnly = await newKey(stack.models, account.accountId, { campaigns: 'view' });
    const hidden = await listed(campaignsOnly.key);
    expect(hidden).to.deep.include.members([
      ['directory', members[0]!.id, null, null],
      ['directory', members[1]!.id, null, null],
      ['csv', null, `csv@${domain}`, 'Casey Row'],
    ]);
    const raw = JSON.stringify(await api('GET', `/campaign/recipients?campaignid=${id}`, undefined, campaignsOnly.key).then((r) => r.body));
    for (const m of members) expect(raw).not.to.include(m.email).and.not.to.include(m.first_name!);

    const shown = [
      ['directory', members[0]!.id, members[0]!.email, 'First0'],
      ['directory', members[1]!.id, members[1]!.email, 'First1'],
      ['csv', null, `csv@${domain}`, 'Casey Row'],
    ];
    const withDirectory = await newKey(stack.models, account.accountId, { campaigns: 'view', directory: 'view' });
    expect(await listed(withDirectory.key)).to.deep.include.members(shown);
    expect(await listed(account.liveKey)).to.deep.include.members(shown);
  });

  it('delivery log: a webhooks-only key sees a member-change event’s member as its id only, nor its values echoed in a response; directory: view sees them', async () => {
    const email = `dana.${process.pid}-${++counter}@scopes.example.com`;
    const path = hookPath('scopes');
    // The receiver echoes the member's email and name back.
    receiver.on(path, () => ({ status: 200, body: `welcome Dana Quill <${email}>` }));
    const hooks = webhookApi(stack, account);
    const endpointId = await hooks.subscribe('team_member_created', `${receiver.url}${path}`);
    const { member } = await hooks.upsert({ email, first_name: 'Dana', last_name: 'Quill', job_position: 'Cartographer' });
    const [delivery] = await hooks.settled(endpointId);
    const personal = [email, 'Dana', 'Quill', 'Cartographer'];

    const webhooksOnly = await newKey(stack.models, account.accountId, { webhooks: 'view' });
    const list = await ok<DeliveryView[]>('GET', '/webhook/deliveries?perPage=100', undefined, webhooksOnly.key);
    expect(list.map((d) => d.id)).to.include(delivery!.id);
    const masked = await ok<DeliveryDetailView>('GET', `/webhook/deliveries/findOne/id/${delivery!.id}`, undefined, webhooksOnly.key);
    for (const text of [JSON.stringify(list), JSON.stringify(masked)]) for (const value of personal) expect(text).not.to.include(value);
    expect(JSON.parse(masked.body)).to.deep.include({ event_type: 'team_member_created', event_id: delivery!.event_id, member: { id: member.id } });
    expect(masked.redacted).to.equal(false);
    expect(masked.attempt_log[0]!.response_body).to.equal('welcome [masked] [masked] <[masked]>');

    const outbox = await stack.models.OutboxEvent.findOne({ where: { account_id: account.accountId, event_id: delivery!.event_id } });
    for (const key of [(await newKey(stack.models, account.accountId, { webhooks: 'view', directory: 'view' })).key, account.liveKey]) {
      const detail = await ok<DeliveryDetailView>('GET', `/webhook/deliveries/findOne/id/${delivery!.id}`, undefined, key);
      expect(detail.body).to.equal(outbox!.payload);
      expect(JSON.parse(detail.body).member).to.deep.include({ id: member.id, email, first_name: 'Dana', last_name: 'Quill' });
      expect(detail.attempt_log[0]!.response_body).to.equal(`welcome Dana Quill <${email}>`);
    }
  });
});
