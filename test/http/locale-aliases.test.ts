// One locale for every endpoint that takes one (issue 46, item 4): the aliases the decisions list are accepted by
// send-ecard, campaigns (save, updateLocale), automations and widgets (wconfig.locale), each stored as the
// language it names; garbage is 400 everywhere.
import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { apiClient, expectFailure, expectSuccess, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

const ALIASES: Record<string, string> = {
  english: 'en',
  spanish: 'es',
  dutch: 'nl',
  hebrew: 'he',
  korean: 'ko',
  german: 'de',
  french: 'fr',
  arabic: 'ar',
  polish: 'pl',
  'brazilian-portuguese': 'pt-BR',
  pt: 'pt-BR',
  nam: 'vi',
};

describe('locale aliases on every endpoint that takes a locale', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let ecardId: number;
  before(async () => {
    stack = await testStack();
  });
  // An account per test: the key API's rate limit is per key.
  beforeEach(async () => {
    const made = await accountWithWidget(stack, { plan: 'enterprise' });
    account = made.account;
    ecardId = made.ecard.id;
  });
  const { api } = apiClient(() => stack, () => account.liveKey);

  const endpoints: Array<[string, (locale: string) => Promise<ApiResponse & { stored: () => Promise<unknown> }>]> = [
    [
      'send-ecard',
      async (locale) => {
        const body = { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', type: 'ecard_copy_link', locale };
        const res = await api('POST', '/pub/ecard-actions/send-ecard', body);
        return { ...res, stored: async () => (await stack.models.Send.findOne({ where: { send_id: String(res.body.sendId) } }))?.locale };
      },
    ],
    [
      'campaign/save',
      async (locale) => {
        const res = await api('POST', '/campaign/save', { campaign: { campaign_name: 'C', from_name: 'HR', from_email: 'hr@example.com', locale } });
        return { ...res, stored: async () => (await stack.models.Campaign.findByPk(Number((res.body.data as Json | undefined)?.id ?? res.body.id)))?.locale };
      },
    ],
    [
      'campaign/updateLocale',
      async (locale) => {
        const id = (expectSuccess(await api('POST', '/campaign/save', { campaign: { campaign_name: 'C', from_name: 'HR', from_email: 'hr@example.com' } })) as { id: number }).id;
        const res = await api('POST', '/campaign/updateLocale', { campaignid: id, locale });
        return { ...res, stored: async () => (await stack.models.Campaign.findByPk(id))?.locale };
      },
    ],
    [
      'automation/save',
      async (locale) => {
        const res = await api('POST', '/automation/save', { automation: { automation_name: 'A', event_type: 'birthday', locale } });
        return { ...res, stored: async () => (await stack.models.Automation.findByPk(Number((res.body.data as Json | undefined)?.id ?? res.body.id)))?.locale };
      },
    ],
    [
      'widget/save (wconfig.locale)',
      async (locale) => {
        const res = await api('POST', '/widget/save', { widget: { name: 'W', wconfig: { locale } } });
        return { ...res, stored: async () => (await stack.models.Widget.findByPk(Number((res.body.data as Json | undefined)?.id ?? res.body.id)))?.wconfig };
      },
    ],
  ];

  for (const [name, attempt] of endpoints) {
    it(`${name}: each alias is accepted`, async () => {
      for (const [alias, language] of Object.entries(ALIASES)) {
        const res = await attempt(alias);
        expect(res.status, `${alias}: ${JSON.stringify(res.body)}`).to.equal(200);
        const stored = await res.stored();
        // A widget's wconfig is kept as its owner wrote it (the widget reads the language through the same schema).
        if (name.startsWith('widget')) expect(stored, alias).to.deep.include({ locale: alias });
        else expect(stored, alias).to.equal(language);
      }
    });

    it(`${name}: a language tag is kept as written; garbage is 400`, async () => {
      const tagged = await attempt('fr-CA');
      expect(tagged.status, JSON.stringify(tagged.body)).to.equal(200);
      if (!name.startsWith('widget')) expect(await tagged.stored()).to.equal('fr-CA');
      for (const bad of ['x1!', 'klingon-of-the-north', 'e']) {
        const res = await attempt(bad);
        // send-ecard answers in the spec's own envelope (no data key).
        if (name !== 'send-ecard') expectFailure(res, 400, 'invalid_parameter');
        else {
          expect(res.status, bad).to.equal(400);
          expect(res.body, bad).to.deep.include({ success: false, code: 'invalid_parameter' });
        }
      }
    });
  }
});
