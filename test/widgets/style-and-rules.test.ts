import { expect } from 'chai';
import { apiClient, call, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { extraApp, testStack, type TestStack } from '../helpers/stack.ts';

type WidgetBody = Record<string, unknown> & { id: number };

// The public widget's style (colours, font sizes, the owner's CSS) and sender rules on the key API; wconfig's display keys checked at save.
describe("widgets: the public widget's style, sender rules and display keys", function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const save = async (widget: Record<string, unknown>) => expectSuccess(await api('POST', '/widget/save', { widget })) as WidgetBody;
  const findOne = async (id: number) => expectSuccess(await api('GET', `/widget/findOne/id/${id}`)) as WidgetBody;

  const FIELDS = {
    stylebg: '#ffffff',
    stylebghead: 'rgb(10, 20, 30)',
    stylebgbody: 'aliceblue',
    styletext: '#222',
    styleheadtext: 'rgba(0, 0, 0, 0.8)',
    stylelink: '#0a58ca',
    style_fontsize: 16,
    style_fontsize_header: 28,
    widgetcss: '.card { border-radius: 8px; background: url("https://cdn.example.com/bg.png"); }',
    email_verification_required: true,
    dir_session_timeout_minutes: 90,
  };
  const LISTS = { sender_email_domains_whitelist: 'Example.COM, acme.example.org\nexample.com', recipient_email_domains_whitelist: 'partner.example' };
  const STORED_LISTS = { sender_email_domains_whitelist: 'example.com\nacme.example.org', recipient_email_domains_whitelist: 'partner.example' };

  it('a new widget answers the defaults: no style, no CSS, no lists, verification off, 30 minutes', async () => {
    const widget = await save({ name: 'Plain', wconfig: {} });
    expect(widget).to.deep.include({
      stylebg: null, stylebghead: null, stylebgbody: null, styletext: null, styleheadtext: null, stylelink: null, style_fontsize: null, style_fontsize_header: null,
      widgetcss: null, email_verification_required: false, sender_email_domains_whitelist: null, recipient_email_domains_whitelist: null, dir_session_timeout_minutes: 30,
      public_share_enabled: false,
    });
  });

  it('saves each field; findOne, search and a copy answer them; the lists are stored lower-case, one per line', async () => {
    const widget = await save({ name: 'Styled', wconfig: { layout: 'masonry', custom: { kept: [1, 2] } }, public_share_enabled: true, ...FIELDS, ...LISTS });
    const expected = { ...FIELDS, ...STORED_LISTS, public_share_enabled: true };
    expect(widget).to.deep.include(expected);
    expect(await findOne(widget.id)).to.deep.include(expected);
    const listed = expectSuccess(await api('GET', '/widget/search?keyword=Styled')) as WidgetBody[];
    expect(listed).to.have.length(1);
    expect(listed[0]).to.deep.include(expected);
    const row = (await stack.models.Widget.findByPk(widget.id))!;
    expect(row.sender_email_domains_whitelist).to.equal('example.com\nacme.example.org');
    expect(row.style_fontsize).to.equal(16);
    const copy = expectSuccess(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: widget.id })) as WidgetBody;
    expect(copy.id).not.to.equal(widget.id);
    expect(copy).to.deep.include({ ...expected, name: 'Copy - Styled' });
    expect((await findOne(copy.id)).wconfig).to.deep.equal({ layout: 'masonry', custom: { kept: [1, 2] } });
  });

  it('an update that leaves them out keeps them; null clears a colour, a size, the CSS and a list', async () => {
    const widget = await save({ name: 'Kept', wconfig: {}, ...FIELDS, ...LISTS });
    expect(await save({ id: widget.id, name: 'Renamed' })).to.deep.include({ ...FIELDS, ...STORED_LISTS, name: 'Renamed' });
    const cleared = await save({ id: widget.id, stylebg: null, style_fontsize: null, widgetcss: null, sender_email_domains_whitelist: null, email_verification_required: false });
    expect(cleared).to.deep.include({ stylebg: null, style_fontsize: null, widgetcss: null, sender_email_domains_whitelist: null, email_verification_required: false, stylelink: FIELDS.stylelink });
    // An empty list is no list.
    expect(await save({ id: widget.id, recipient_email_domains_whitelist: ' , \n' })).to.deep.include({ recipient_email_domains_whitelist: null });
  });

  it('widgetcss is stored sanitized: @import, expression(), behavior, -moz-binding and non-https url() go, the rest stays', async () => {
    const css = [
      '@import url("https://cdn.example.com/other.css");',
      '.a { color: red; width: expression(alert(1)); }',
      '.b { behavior: url(x.htc); -moz-binding: url("https://x.example/b.xml#x"); margin: 0; }',
      '.c { background: url(http://cdn.example.com/x.png); }',
      '.d { background: url(https://cdn.example.com/ok.png); }',
    ].join('\n');
    const widget = await save({ name: 'CSS', wconfig: {}, widgetcss: css });
    const stored = (await findOne(widget.id)).widgetcss as string;
    expect(stored).to.include('color: red').and.include('margin: 0').and.include('url(https://cdn.example.com/ok.png)');
    for (const gone of ['@import', 'expression', 'behavior', '-moz-binding', 'http://']) expect(stored).not.to.include(gone);
    expect((await stack.models.Widget.findByPk(widget.id))!.widgetcss).to.equal(stored);
  });

  it('wconfig: unknown keys are kept as written, known display keys within their bounds are accepted', async () => {
    const wconfig = { layout: 'inline', thumbColumns: 4, allowedOrigins: ['https://shop.example.com', 'http://localhost:8080'], anchorSetting: 'x', nested: { deep: true } };
    const widget = await save({ name: 'Display', wconfig });
    expect((await findOne(widget.id)).wconfig).to.deep.equal(wconfig);
  });

  it('wconfig.allowedOrigins: an http:// origin is refused (400) where WIDGET_ALLOW_HTTP_ORIGINS is off, https ones are fine', async () => {
    const strict = await extraApp({ env: { WIDGET_ALLOW_HTTP_ORIGINS: 'false' } });
    const save = (widget: Record<string, unknown>) => call(strict.url, 'POST', '/v2/api/widget/save', { key: account.liveKey, body: { widget } });
    const message = expectFailure(await save({ name: 'Framed', wconfig: { allowedOrigins: ['https://shop.example.com', 'http://shop.example.com'] } }), 400, 'invalid_parameter')[0];
    expect(message).to.equal('widget.wconfig.allowedOrigins: http://shop.example.com is not an https origin');
    expect(await stack.models.Widget.count({ where: { account_id: account.accountId } })).to.equal(0);
    const widget = expectSuccess(await save({ name: 'Framed', wconfig: { allowedOrigins: ['https://shop.example.com'] } })) as WidgetBody;
    expectFailure(await save({ id: widget.id, wconfig: { allowedOrigins: ['http://localhost:8080'] } }), 400, 'invalid_parameter');
    expect((await findOne(widget.id)).wconfig).to.deep.equal({ allowedOrigins: ['https://shop.example.com'] });
  });

  describe('bad values → 400 invalid_parameter naming the field, nothing written', () => {
    const BAD: Array<[string, Record<string, unknown>, RegExp]> = [
      ['a colour that is not one', { stylebg: 'not-a-colour' }, /widget\.stylebg: expected a CSS colour/],
      ['a colour as a number', { stylelink: 123 }, /widget\.stylelink/],
      ['a colour over 64 characters', { styletext: `#${'a'.repeat(64)}` }, /widget\.styletext/],
      ['a font size under 10', { style_fontsize: 9 }, /widget\.style_fontsize: .*10/],
      ['a header font size over 40', { style_fontsize_header: 41 }, /widget\.style_fontsize_header: .*40/],
      ['a font size with a fraction', { style_fontsize: 12.5 }, /widget\.style_fontsize/],
      ['a font size as text', { style_fontsize: '12px' }, /widget\.style_fontsize/],
      ['CSS that cannot be parsed', { widgetcss: '.a { color: red' }, /widget\.widgetcss: not valid CSS/],
      ['CSS over 20 KB', { widgetcss: `/*${'x'.repeat(20 * 1024)}*/` }, /widget\.widgetcss/],
      ['CSS over 20 KB in bytes', { widgetcss: `.a{content:"${'é'.repeat(10_300)}"}` }, /widget\.widgetcss: at most 20 KB/],
      ['a sender domain that is no domain', { sender_email_domains_whitelist: 'example.com, not a domain' }, /widget\.sender_email_domains_whitelist: "not a domain" is not a domain/],
      ['a recipient domain with an @', { recipient_email_domains_whitelist: '@example.com' }, /widget\.recipient_email_domains_whitelist: "@example\.com" is not a domain/],
      ['a domain of one label', { recipient_email_domains_whitelist: 'localhost' }, /"localhost" is not a domain/],
      ['a list as an array', { sender_email_domains_whitelist: ['example.com'] }, /widget\.sender_email_domains_whitelist/],
      ['verification not a flag', { email_verification_required: 'maybe' }, /widget\.email_verification_required/],
      ['a session under 5 minutes', { dir_session_timeout_minutes: 4 }, /widget\.dir_session_timeout_minutes: .*5/],
      ['a session over a day', { dir_session_timeout_minutes: 1441 }, /widget\.dir_session_timeout_minutes: .*1440/],
      ['wconfig: a layout that is not one', { wconfig: { layout: 'carousel', other: 1 } }, /widget\.wconfig\.layout/],
      ['wconfig: thumbColumns out of bounds', { wconfig: { thumbColumns: 7 } }, /widget\.wconfig\.thumbColumns/],
      ['wconfig: a theme colour that is not one', { wconfig: { widgetThemeColor: 'blurple' } }, /widget\.wconfig\.widgetThemeColor/],
      ['wconfig: an origin with a path', { wconfig: { allowedOrigins: ['https://shop.example.com/page'] } }, /widget\.wconfig\.allowedOrigins\.0/],
      ['wconfig: more than 20 origins', { wconfig: { allowedOrigins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`) } }, /widget\.wconfig\.allowedOrigins/],
      ['wconfig: dailySendCap over 100,000', { wconfig: { dailySendCap: 100_001 } }, /widget\.wconfig\.dailySendCap/],
    ];
    for (const [what, fields, message] of BAD) {
      it(what, async () => {
        const widget = await save({ name: 'Kept', wconfig: { layout: 'grid' }, ...FIELDS, ...LISTS });
        const before = await stack.models.Widget.count({ where: { account_id: account.accountId } });
        expect(expectFailure(await api('POST', '/widget/save', { widget: { name: 'Bad', wconfig: {}, ...fields } }), 400, 'invalid_parameter')[0]).to.match(message);
        expect(expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id, name: 'Changed', ...fields } }), 400, 'invalid_parameter')[0]).to.match(message);
        expect(await stack.models.Widget.count({ where: { account_id: account.accountId } })).to.equal(before);
        const kept = await findOne(widget.id);
        expect(kept).to.deep.include({ ...FIELDS, ...STORED_LISTS, name: 'Kept' });
        expect(kept.wconfig).to.deep.equal({ layout: 'grid' });
      });
    }
  });
});
