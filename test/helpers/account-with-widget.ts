// The tests' one fixture for a sender's world: a new account with its keys, a widget, an eCard, the SMTP sink and a key-API client.
import type { Ecard } from '../../models/Ecard.ts';
import type { Widget } from '../../models/Widget.ts';
import type { Models } from '../../models/index.ts';
import { apiClient, newAccount, type ApiClient, type TestAccount } from './api.ts';
import { insertEcard, insertWidget } from './catalog.ts';
import { testSmtpServer, type SmtpTestServer } from './smtp.ts';

export interface AccountWithWidget {
  account: TestAccount;
  widget: Widget;
  ecard: Ecard;
  /** The suite's SMTP server, where the stack's emails arrive. */
  smtp: SmtpTestServer;
  /** The key API of the stack with the account's live key. */
  api: ApiClient;
}

/** A new account of `plan` (free by default) with a widget and one eCard made straight in the database (`ecard`: its fields). */
export async function accountWithWidget(
  stack: { url: string; models: Models },
  options: { plan?: 'free' | 'pro' | 'enterprise'; ecard?: Parameters<typeof insertEcard>[3] } = {},
): Promise<AccountWithWidget> {
  const account = await newAccount(stack.models, options.plan);
  const widget = await insertWidget(stack.models, account.accountId);
  const ecard = await insertEcard(stack.models, account.accountId, widget.id, options.ecard);
  return { account, widget, ecard, smtp: await testSmtpServer(), api: apiClient(stack, account.liveKey) };
}
