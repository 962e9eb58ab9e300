import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { shareCard } from '../helpers/sends.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

// The card page's markup and headers over HTTP (both databases); its behaviour in Chromium is test/sends/card-page.browser.test.ts.
describe('the card page over HTTP: video embeds and their CSP, share links, Open Graph, the thank-you form', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let ecardId: number;
  let widgetId: number;
  before(async () => {
    stack = await testStack();
    await testSmtpServer();
    const made = await accountWithWidget(stack, { plan: 'pro', ecard: { self_hosted_url: 'https://cdn.example.com/cover.png' } });
    account = made.account;
    const { widget, ecard } = made;
    ecardId = ecard.id;
    widgetId = widget.id;
  });

  async function page(url: string) {
    const res = await fetch(url);
    expect(res.status).to.equal(200);
    return { html: await res.text(), csp: res.headers.get('content-security-policy')! };
  }
  // An eCard saved through the key API with these fields: they reach the page through the send's snapshot.
  async function ecardWith(fields: Record<string, unknown>): Promise<number> {
    const base = { widgetid: widgetId, name: 'Card', header: 'Happy day', self_hosted_url: 'https://cdn.example.com/cover.png' };
    return (expectSuccess(await call(stack.url, 'POST', '/v2/api/ecard/save', { key: account.liveKey, body: { myEcard: { ...base, ...fields } } })) as { id: number }).id;
  }
  const shareWithVideo = async (video: string) => page((await shareCard(stack.url, account.liveKey, ecardId, { overrideProps: { envelope_video_url: video } })).shareUrl);

  describe('video', () => {
    it('a YouTube link becomes the youtube-nocookie embed, framed only from there, with a strict-origin referrer', async () => {
      const { html, csp } = await shareWithVideo('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42');
      expect(html).to.match(/<iframe src="https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ" title="Watch the video" referrerpolicy="strict-origin"/);
      expect(html).to.not.include('www.youtube.com');
      expect(csp).to.include('frame-src https://www.youtube-nocookie.com;').and.not.include('vimeo');
      expect(csp).to.include("frame-ancestors 'none'");
    });

    it('a youtu.be link too', async () => {
      const { html } = await shareWithVideo('https://youtu.be/dQw4w9WgXcQ');
      expect(html).to.include('src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"');
    });

    it('a Vimeo link becomes the player.vimeo.com embed with dnt=1, framed only from there', async () => {
      const { html, csp } = await shareWithVideo('https://vimeo.com/76979871');
      expect(html).to.include('<iframe src="https://player.vimeo.com/video/76979871?dnt&#x3D;1"').and.include('referrerpolicy="strict-origin"');
      expect(csp).to.include('frame-src https://player.vimeo.com;').and.not.include('youtube');
    });

    it('an https video file plays in the page\'s own player; no frame is allowed', async () => {
      const { html, csp } = await shareWithVideo('https://cdn.example.com/clip.webm');
      expect(html).to.include('<video controls src="https://cdn.example.com/clip.webm" class="media" playsinline preload="metadata">');
      expect(html).to.not.include('<iframe');
      expect(csp).to.not.include('frame-src');
    });

    it('anything else is a plain link, never a frame (an http video file, another site, a YouTube URL without a video id)', async () => {
      for (const url of ['http://cdn.example.com/clip.mp4', 'https://example.com/party', 'https://www.youtube.com/channel/UC123']) {
        const { html, csp } = await shareWithVideo(url);
        expect(html, url).to.include(`<a href="${url.replace(/=/g, '&#x3D;')}" rel="noopener noreferrer" target="_blank">Watch the video</a>`);
        expect(html, url).to.not.include('<iframe').and.not.include('<video');
        expect(csp, url).to.not.include('frame-src');
      }
    });
  });

  describe('the card', () => {
    it('the cover\'s alt text and the call-to-action\'s label come from the snapshot; the download link is the cover', async () => {
      const ecard = await ecardWith({ thumbnail_alt_label: 'Balloons and a cake', ecardLink: 'https://example.com/lunch', ecardLinkAltText: 'Book our lunch' });
      const { shareUrl } = await shareCard(stack.url, account.liveKey, ecard);
      const { html } = await page(shareUrl);
      expect(html).to.include('<img class="cover" src="https://cdn.example.com/cover.png" alt="Balloons and a cake">');
      expect(html).to.include('<a class="button" href="https://example.com/lunch" rel="noopener noreferrer" target="_blank">Book our lunch</a>');
      expect(html).to.include('<a class="download" href="https://cdn.example.com/cover.png" download>Download</a>');
    });

    it('without those: the header is the alt text and the label is the built-in one', async () => {
      const { shareUrl } = await shareCard(stack.url, account.liveKey, await ecardWith({ ecardLink: 'https://example.com/lunch' }));
      const { html } = await page(shareUrl);
      expect(html).to.include('alt="Happy day"').and.include('target="_blank">Open the link</a>');
    });

    it('overrideProps sets the envelope theme and the music\'s repeat of one send; the eCard\'s own apply otherwise', async () => {
      const ecard = await ecardWith({ envelope_theme: 'night', envelope_audio_url: 'https://cdn.example.com/tune.mp3' });
      const own = (await page((await shareCard(stack.url, account.liveKey, ecard)).shareUrl)).html;
      // (The page's inlined script names the attribute too: look at the envelope's own tag.)
      const repeats = (html: string) => /<main [^>]*data-audio-repeat/.test(html);
      expect(own).to.include('data-theme="night"');
      expect(repeats(own)).to.equal(false);
      const overridden = (await page((await shareCard(stack.url, account.liveKey, ecard, { overrideProps: { envelope_theme: 'kraft', envelope_audio_repeat: true } })).shareUrl)).html;
      expect(overridden).to.include('data-theme="kraft"');
      expect(repeats(overridden)).to.equal(true);
    });

    it('the brand\'s logo, name and font', async () => {
      const other = await newAccount(stack.models, 'pro');
      const saved = await call(stack.url, 'POST', '/v2/api/brand/save', { key: other.liveKey, body: { brand: { name: 'Acme', is_default: true, logo_url: 'https://cdn.example.com/logo.png', font: 'serif' } } });
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
      const widget = await insertWidget(stack.models, other.accountId);
      const ecard = await insertEcard(stack.models, other.accountId, widget.id);
      const { html } = await page((await shareCard(stack.url, other.liveKey, ecard.id)).shareUrl);
      expect(html).to.include('<img class="logo" src="https://cdn.example.com/logo.png" alt="Acme">');
      expect(html).to.include('--font: Georgia, "Times New Roman", serif;');
    });
  });

  describe('share links and Open Graph', () => {
    it('a share-link page offers share links and Open Graph tags from the snapshot', async () => {
      const { shareUrl } = await shareCard(stack.url, account.liveKey, ecardId);
      const { html } = await page(shareUrl);
      const u = encodeURIComponent(shareUrl).replace(/=/g, '&#x3D;');
      expect(html).to.include('<meta property="og:title" content="Happy day">');
      expect(html).to.include('<meta property="og:image" content="https://cdn.example.com/cover.png">');
      expect(html).to.include(`<meta property="og:url" content="${shareUrl}">`);
      expect(html).to.not.include('og:description');
      expect(html).to.include(`href="${shareUrl}" data-copied="Link copied">Copy link</a>`);
      for (const link of ['https://wa.me/?text&#x3D;', `https://x.com/intent/post?url&#x3D;${u}`, `https://www.facebook.com/sharer/sharer.php?u&#x3D;${u}`, `https://www.linkedin.com/sharing/share-offsite/?url&#x3D;${u}`, 'mailto:?subject&#x3D;']) {
        expect(html, link).to.include(`href="${link}`);
      }
    });

    it('og_title and og_description of the snapshot win over the header', async () => {
      const { shareUrl } = await shareCard(stack.url, account.liveKey, await ecardWith({ og_title: 'A card for you', og_description: 'Open it & smile' }));
      const { html } = await page(shareUrl);
      expect(html).to.include('<meta property="og:title" content="A card for you">');
      expect(html).to.include('<meta property="og:description" content="Open it &amp; smile">');
    });

    it('a recipient\'s own page of an emailed card has neither share links nor Open Graph tags, and has the thank-you form', async () => {
      const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
        key: account.liveKey,
        body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: `rita-${process.pid}@example.com` },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const send = (await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!;
      await eventually(async () => (await send.reload()).status, (s) => s === 'sent', 20_000);
      const recipient = (await stack.models.SendRecipient.findOne({ where: { send_id: send.id } }))!;
      const pageId = recipient.page_id ?? send.stat_vanity_id;
      const { html } = await page(`${stack.url}/e/${pageId}`);
      expect(html).to.not.include('og:title').and.not.include('Share this eCard').and.not.include('wa.me');
      expect(html).to.include(`<form method="post" action="/e/${pageId}/thanks">`);
      expect(html).to.include('<textarea id="thanks-message" name="message" rows="3" minlength="1" maxlength="1000" required></textarea>');
      expect(html).to.not.include('Thank you! Your message is on its way.');
      const back = await page(`${stack.url}/e/${pageId}?thanks=sent`);
      expect(back.html).to.include('<p class="notice" role="status">Thank you! Your message is on its way.</p>');
    });
  });
});
