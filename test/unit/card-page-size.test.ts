import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import type { Send } from '../../models/Send.ts';
import type { SendRecipient } from '../../models/SendRecipient.ts';
import { renderPage } from '../../services/sends/card-page/page.ts';
import type { EcardDesign } from '../../services/sends/accept/snapshot.ts';

// The page carries its own CSS and JS inline (canvas-confetti too, when the card throws confetti), so its HTML is
// everything of its own a browser downloads: the heaviest page, gzipped, stays within 60 KB.
describe('the card page\'s own bytes', () => {
  const send = { locale: 'en', sender_name: 'Sam Sender', personal_message: '<p>Happy birthday!</p>', override_props: null } as Send;
  const design: EcardDesign = {
    ecard_id: 1, widget_id: 1, name: 'Card', emailSubject: 'Hello', header: 'Happy day', details: '<p>Dear you</p>',
    self_hosted_url: 'https://cdn.example.com/cover.png', ecardLink: 'https://example.com', url_redirect_after_send: 'https://example.com/next',
    envelope_bg_image_url: 'https://cdn.example.com/paper.jpg', envelope_audio_url: 'https://cdn.example.com/tune.mp3', envelope_video_url: 'https://youtu.be/dQw4w9WgXcQ',
    envelope_color_settings: JSON.stringify({ envelope: '#2a9d8f', accent: '#e9c46a' }), envelope_auto_open: false, envelope_confetti: true, envelope_theme: 'night',
  };
  const recipient = { recipient_name: 'Alice Able', rendered_header: 'Happy day', rendered_html: '<p>Dear Alice</p>', rendered_subject: 'Hello' } as SendRecipient;
  const state = { openAction: '/e/AbCdEfGhIjKlMnOpQrStUvWx/open', opened: false, url: 'https://cards.example.com/e/AbCdEfGhIjKlMnOpQrStUvWx', shared: true, thanksSent: false };

  it('with everything on (confetti, music, video, share links, the thank-you form) is at most 60 KB gzipped', () => {
    const { html } = renderPage(send, design, recipient, 'bm9uY2U=', state);
    expect(html).to.include('canvas-confetti v1.9.4');
    const gzipped = gzipSync(html).length;
    expect(gzipped).to.be.at.most(60 * 1024);
  });

  it('without confetti leaves canvas-confetti out', () => {
    const { html } = renderPage(send, { ...design, envelope_confetti: false }, recipient, 'bm9uY2U=', state);
    expect(html).to.not.include('canvas-confetti v');
  });
});
