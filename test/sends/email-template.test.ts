// The email's template and palette as pure code: the MJML source passes MJML's strict validator once sample values
// stand in for the Handlebars parts, MJML loads only when an email is first compiled, every text colour reads on
// what it sits on, and what a snapshot without a brand and a right-to-left language render.
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import mjml2html from 'mjml';
import { contrastRatio } from '../../lib/colors.ts';
import { packageRoot } from '../../lib/paths.ts';
import type { Send } from '../../models/Send.ts';
import type { SendRecipient } from '../../models/SendRecipient.ts';
import { renderEmail } from '../../services/sends/email/email.ts';
import { paletteOf, type EmailPalette } from '../../services/sends/email/email-palette.ts';
import { emailMjml, emailTemplate } from '../../services/sends/email/email-template.ts';
import type { BrandDesign, EcardDesign } from '../../services/sends/accept/snapshot.ts';

const brand = (fields: Partial<BrandDesign> = {}): BrandDesign => ({
  id: 1, name: 'Maple Goods', logo_url: 'https://cdn.example.com/maple.png', website: 'https://maple.example', address: '1 Main St\nSpringfield',
  primary_color: '#0a7', accent_color: '#d97706', background_color: null, text_color: null, font: 'serif', footer_text: 'Sent with care.',
  social: { twitter: null, facebook: 'https://facebook.com/maple', instagram: null, linkedin: null, youtube: null }, ...fields,
});

// A Handlebars expression's sample: a URL where an attribute expects one, a word elsewhere.
const sample = (name: string) => (/url|link|website/i.test(name) ? 'https://example.com/sample' : name === 'lang' ? 'en' : 'Sample text');

/** The source with sample values for its Handlebars parts; block helpers are dropped, so every branch stays. */
const withSamples = (source: string) =>
  source
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\{\{[#/][^}]*\}\}|\{\{else[^}]*\}\}/g, '')
    .replace(/\{\{\{?\s*([\w.@]+)\s*\}?\}\}/g, (_, name: string) => sample(name));

const send = (fields: Partial<Send> = {}) => ({ locale: 'en', sender_name: 'Sam Sender', personal_message: '<p>Well done!</p>', ...fields }) as Send;
const recipient = { rendered_subject: 'Thank you', rendered_header: 'Thank you <b>all</b>', rendered_html: '<p>Dear Rita</p>' } as SendRecipient;
const design = (fields: Partial<EcardDesign> = {}) => ({ self_hosted_url: 'https://cdn.example.com/card.png', thumbnail_alt_label: 'A bunch of flowers', ...fields }) as EcardDesign;

describe('the email template (MJML) and its palette', function () {
  this.timeout(30_000);

  for (const [what, palette, dir] of [
    ['unbranded', paletteOf(undefined), 'ltr'],
    ['branded', paletteOf(brand()), 'ltr'],
    ['right to left, dark brand', paletteOf(brand({ background_color: '#101820', text_color: '#f2f2f2', font: 'mono' })), 'rtl'],
  ] as const) {
    it(`the MJML source is valid for MJML's strict validator with sample values (${what})`, async () => {
      const source = withSamples(emailMjml(palette, dir));
      expect(source).not.to.match(/\{\{|\[\[/);
      const { errors } = await mjml2html(source, { validationLevel: 'strict', fonts: {} });
      expect(errors).to.deep.equal([]);
    });
  }

  it('a placeholder the palette does not know fails loudly, not silently', () => {
    const missing = { ...paletteOf(undefined) } as Partial<EmailPalette>;
    delete missing.giftText;
    expect(() => emailMjml(missing as EmailPalette, 'ltr')).to.throw(/unknown placeholder \[\[giftText\]\]/);
  });

  it('MJML is not loaded when the API, the worker and the email code are imported; the first compile loads it', () => {
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const mjml = () => Object.keys(require.cache).some((k) => /node_modules[\\\\/]mjml/.test(k));
      await import('./app/runtime.ts');
      await import('./app/services.ts');
      const { emailTemplate } = await import('./services/sends/email/email-template.ts');
      const { paletteOf } = await import('./services/sends/email/email-palette.ts');
      const before = mjml();
      await emailTemplate(paletteOf(undefined), 'ltr');
      console.log(JSON.stringify({ before, after: mjml() }));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: packageRoot, encoding: 'utf8' });
    expect(JSON.parse(out.trim().split('\n').pop()!)).to.deep.equal({ before: false, after: true });
  });

  it('compiles once per palette and direction', async () => {
    const a = emailTemplate(paletteOf(brand()), 'ltr');
    expect(emailTemplate(paletteOf(brand({ name: 'Another name, same look' })), 'ltr')).to.equal(a);
    expect(emailTemplate(paletteOf(brand()), 'rtl')).to.not.equal(a);
    expect(emailTemplate(paletteOf(brand({ primary_color: '#123456' })), 'ltr')).to.not.equal(a);
    await a;
  });

  for (const [what, fields] of [
    ['white text on white', { text_color: '#fff', background_color: '#ffffff' }],
    ['black text on black', { text_color: '#000', background_color: '#000' }],
    ['a pale yellow primary on white', { primary_color: '#ffef9f', accent_color: '#fff8dc' }],
    ['a mid-grey background', { background_color: '#777777', text_color: '#888888', primary_color: '#7a7a7a' }],
  ] as const) {
    it(`every text colour reads at 4.5:1 or more: ${what}`, () => {
      const p = paletteOf(brand(fields));
      const pairs: Array<[string, string, string]> = [
        ['text', p.text, p.surface], ['muted', p.muted, p.surface], ['link', p.link, p.surface], ['page text', p.pageText, p.page],
        ['page muted', p.pageMuted, p.page], ['page link', p.pageLink, p.page], ['note', p.noteText, p.noteBg], ['gift', p.giftText, p.giftBg],
        ['dark text', p.dark.text, p.dark.surface], ['dark muted', p.dark.muted, p.dark.surface], ['dark link', p.dark.link, p.dark.surface],
      ];
      for (const [name, fg, bg] of pairs) expect(contrastRatio(fg, bg), `${name}: ${fg} on ${bg}`).to.be.at.least(4.5);
      // Button labels: black or white, whichever reads better on the brand's colour.
      expect(contrastRatio(p.onPrimary, p.primary)).to.be.at.least(Math.min(4.5, Math.max(contrastRatio('#111111', p.primary), contrastRatio('#ffffff', p.primary))));
    });
  }

  it("a brand's white text on white renders in a readable colour", async () => {
    const { html } = await renderEmail(send(), design({ brand: brand({ text_color: '#ffffff', background_color: '#ffffff' }) }), recipient, 'https://cards.example/e/abc');
    const p = paletteOf(brand({ text_color: '#ffffff', background_color: '#ffffff' }));
    expect(p.text).to.not.equal('#ffffff');
    expect(html).to.include(`color:${p.text}`);
  });

  it('a snapshot without a brand renders unbranded, in the neutral palette', async () => {
    const { html, text } = await renderEmail(send(), design(), recipient, 'https://cards.example/e/abc');
    const neutral = paletteOf(undefined);
    expect(html).to.include(neutral.primary).and.include('Open your eCard');
    expect([...html.matchAll(/<img\b[^>]*src="([^"]*)"/g)].map((m) => m[1])).to.deep.equal(['https://cdn.example.com/card.png']);
    expect(text).not.to.include('-- ');
  });

  it('the parts of the email: preheader, colour schemes, alt text, escaped header, no tracking pixel, the note', async () => {
    const { html, subject } = await renderEmail(send(), design({ brand: brand() }), recipient, 'https://cards.example/e/abc');
    expect(subject).to.equal('Thank you');
    expect(html).to.match(/<div style="display:none;[^"]*">Sam Sender sent you an eCard\. Open it to see your card and message\./);
    expect(html).to.include('<meta name="color-scheme" content="light dark">').and.include('<meta name="supported-color-schemes" content="light dark">');
    expect(html).to.match(/@media \(prefers-color-scheme: dark\)/);
    expect(html).to.include('alt="A bunch of flowers"');
    expect(html).to.include('Thank you &lt;b&gt;all&lt;/b&gt;');
    expect([...html.matchAll(/<img\b[^>]*src="([^"]*)"/g)].map((m) => m[1])).to.deep.equal(['https://cdn.example.com/maple.png', 'https://cdn.example.com/card.png']);
    expect(html).to.include('Personal message').and.include('<p>Well done!</p>');
    expect(html).to.include("Georgia, 'Times New Roman', serif");
  });

  it('Hebrew: right to left on the document and its wrapper, text aligned right', async () => {
    const { html } = await renderEmail(send({ locale: 'hebrew' }), design({ brand: brand() }), recipient, 'https://cards.example/e/abc');
    expect(html).to.match(/<html lang="he" dir="rtl"/);
    expect(html).to.match(/<div[^>]*lang="he" dir="rtl"/);
    // Every block of text (MJML's column boxes keep their own left, which their children override).
    expect(html).to.match(/<div\s+style="font-family:[^"]*text-align:right/);
    expect(html).not.to.match(/<div\s+style="font-family:[^"]*text-align:left/);
  });
});
