import { expect } from 'chai';
import type { ServiceContext } from '../../services/context.ts';
import { addToCounter, recordAbuse } from '../../services/widgets/public/counters.ts';
import { apiClient, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const DAY = 24 * 3600 * 1000;
const day = (at: Date) => at.toISOString().slice(0, 10);

describe('widgets: GET /widget/stats and /widget/abuse (the owner reads the public widget’s use)', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let viewKey: string;
  before(async () => {
    stack = await testStack();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
    viewKey = (await newKey(stack.models, account.accountId, { widgets: 'view' })).key;
  });
  const { api } = apiClient(() => stack, () => viewKey);
  /** A context whose clock says `at`, for the counters' own functions. */
  const at = (when: Date) => ({ models: stack.models, now: () => when, logger: stack.services.logger }) as unknown as ServiceContext;

  it('counts per UTC day over the last 30 days by default: views, form opens, sends by share mode, silent refusals', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const now = new Date();
    const twoDaysAgo = new Date(now.getTime() - 2 * DAY);
    await addToCounter(stack, widget, 'view', twoDaysAgo, 5);
    await addToCounter(stack, widget, 'form_open', twoDaysAgo, 2);
    await addToCounter(stack, widget, 'send:email', twoDaysAgo, 3);
    await addToCounter(stack, widget, 'send:facebook', twoDaysAgo);
    await addToCounter(stack, widget, 'view', now);
    await addToCounter(stack, widget, 'view', now);
    await addToCounter(stack, widget, 'silent', now, 2);
    await addToCounter(stack, widget, 'view', new Date(now.getTime() - 40 * DAY), 100);
    const other = await insertWidget(stack.models, account.accountId);
    await addToCounter(stack, other, 'view', now, 7);

    const stats = expectSuccess(await api('GET', `/widget/stats?widgetid=${widget.id}`)) as Record<string, unknown> & { days: Array<Record<string, unknown>> };
    expect(stats).to.deep.include({
      widgetid: widget.id,
      dateFrom: day(new Date(now.getTime() - 29 * DAY)),
      dateTo: day(now),
      totals: { views: 7, form_opens: 2, silent: 2, sends: { email: 3, facebook: 1 } },
    });
    expect(stats.days).to.have.length(30);
    expect(stats.days[27]).to.deep.equal({ date: day(twoDaysAgo), views: 5, form_opens: 2, silent: 0, sends: { email: 3, facebook: 1 } });
    expect(stats.days[29]).to.deep.equal({ date: day(now), views: 2, form_opens: 0, silent: 2, sends: {} });
    expect(stats.days[0]).to.deep.equal({ date: stats.dateFrom, views: 0, form_opens: 0, silent: 0, sends: {} });

    const wide = expectSuccess(await api('GET', `/widget/stats?widgetId=${widget.id}&dateFrom=${day(new Date(now.getTime() - 40 * DAY))}&dateTo=${day(twoDaysAgo)}`)) as { totals: Record<string, unknown>; days: unknown[] };
    expect(wide.totals).to.deep.equal({ views: 105, form_opens: 2, silent: 0, sends: { email: 3, facebook: 1 } });
    expect(wide.days).to.have.length(39);
  });

  it('takes at most 366 days, from ≤ to, and real calendar days', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    expect((expectSuccess(await api('GET', `/widget/stats?widgetid=${widget.id}&dateFrom=2024-01-01&dateTo=2024-12-31`)) as { days: unknown[] }).days).to.have.length(366);
    expectFailure(await api('GET', `/widget/stats?widgetid=${widget.id}&dateFrom=2024-01-01&dateTo=2025-01-01`), 422, 'invalid_value');
    expectFailure(await api('GET', `/widget/stats?widgetid=${widget.id}&dateFrom=2024-02-02&dateTo=2024-02-01`), 422, 'invalid_value');
    for (const bad of ['2024-02-30', '2024-13-01', '24-01-01', '2024-1-1', 'yesterday']) {
      expectFailure(await api('GET', `/widget/stats?widgetid=${widget.id}&dateFrom=${bad}`), 400, 'invalid_parameter');
    }
    expectFailure(await api('GET', '/widget/stats'), 422, 'missing_field');
    expectFailure(await api('GET', '/widget/stats?widgetid=abc'), 400, 'invalid_parameter');
  });

  it('another account’s widget or an unknown one is 404; a key without widgets: view is 403', async () => {
    const stranger = await newAccount(stack.models);
    const theirs = await insertWidget(stack.models, stranger.accountId);
    await addToCounter(stack, theirs, 'view', new Date(), 3);
    await recordAbuse(at(new Date()), theirs, 'honeypot');
    expectFailure(await api('GET', `/widget/stats?widgetid=${theirs.id}`), 404, 'not_found');
    expectFailure(await api('GET', `/widget/abuse?widgetid=${theirs.id}`), 404, 'not_found');
    expectFailure(await api('GET', '/widget/stats?widgetid=999999999'), 404, 'not_found');
    const sendsOnly = (await newKey(stack.models, account.accountId, { sends: 'manage' })).key;
    const mine = await insertWidget(stack.models, account.accountId);
    expectFailure(await api('GET', `/widget/stats?widgetid=${mine.id}`, undefined, sendsOnly), 403, 'key_out_of_scope');
    expectFailure(await api('GET', `/widget/abuse?widgetid=${mine.id}`, undefined, sendsOnly), 403, 'key_out_of_scope');
  });

  it('the abuse log: the last 30 days’ refusals and limit hits, per kind, per day and one by one (newest first)', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const now = new Date();
    // Noon of yesterday (UTC): its events, seconds apart, fall on one day.
    const yesterday = new Date(`${day(new Date(now.getTime() - DAY))}T12:00:00.000Z`);
    const lastWeek = new Date(now.getTime() - 7 * DAY);
    await recordAbuse(at(lastWeek), widget, 'ip_limit');
    await recordAbuse(at(yesterday), widget, 'honeypot');
    await recordAbuse(at(new Date(yesterday.getTime() + 1000)), widget, 'honeypot');
    await recordAbuse(at(new Date(yesterday.getTime() + 2000)), widget, 'verify_email_limit');
    await recordAbuse(at(new Date(now.getTime() - 31 * DAY)), widget, 'too_fast');
    await recordAbuse(at(now), await insertWidget(stack.models, account.accountId), 'daily_cap');

    const abuse = expectSuccess(await api('GET', `/widget/abuse?widgetid=${widget.id}`)) as Record<string, unknown>;
    expect(abuse.widgetid).to.equal(widget.id);
    expect(Date.parse(abuse.since as string)).to.be.closeTo(now.getTime() - 30 * DAY, 60_000);
    expect(abuse.totals).to.deep.equal({ ip_limit: 1, honeypot: 2, verify_email_limit: 1 });
    expect(abuse.days).to.deep.equal([
      { date: day(lastWeek), counts: { ip_limit: 1 } },
      { date: day(yesterday), counts: { honeypot: 2, verify_email_limit: 1 } },
    ]);
    expect(abuse.events).to.deep.equal([
      { kind: 'verify_email_limit', at: new Date(yesterday.getTime() + 2000).toISOString() },
      { kind: 'honeypot', at: new Date(yesterday.getTime() + 1000).toISOString() },
      { kind: 'honeypot', at: yesterday.toISOString() },
      { kind: 'ip_limit', at: lastWeek.toISOString() },
    ]);
  });
});
