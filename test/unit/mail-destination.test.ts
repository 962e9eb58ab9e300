import { expect } from 'chai';
import { mailDestination } from '../../api/console/outbox/present.ts';

describe('the outbox says where mail goes', () => {
  const mail = { poolSize: 5, sinkByDefault: false, smtpUrl: undefined } as const;

  it('npm start without SMTP_URL: live emails are kept in the sink because no SMTP server is configured', () => {
    expect(mailDestination('live', { ...mail, transport: 'sink', sinkByDefault: true })).to.equal(
      'Live emails are not sent: no SMTP server is configured (SMTP_URL is not set), so they are kept here, in the mail sink, and reach no one.',
    );
  });

  it('SMTP: names the server by its host only, never the credentials in SMTP_URL', () => {
    const said = mailDestination('live', { ...mail, transport: 'smtp', smtpUrl: 'smtp://mailer:s3cret@mail.example.com:587' });
    expect(said).to.include('through the SMTP server at mail.example.com and are not kept here').and.not.include('s3cret').and.not.include('mailer');
  });

  it('no transport: live emails cannot be sent; the sandbox’s never leave', () => {
    expect(mailDestination('live', { ...mail, transport: 'none' })).to.include('Live emails cannot be sent');
    expect(mailDestination('sandbox', { ...mail, transport: 'smtp', smtpUrl: 'smtp://mail.example.com' })).to.include('Sandbox emails never leave');
  });
});
