// The one delivery settlement (services/sends/delivery/settlement.ts): what the transport's answer means for a recipient,
// for single and bulk sends alike.
import { expect } from 'chai';
import { MailError } from '../../services/mail/transport.ts';
import { OUTCOME_UNKNOWN } from '../../services/sends/delivery/delivery.ts';
import { settlementOf } from '../../services/sends/delivery/settlement.ts';

describe('delivery settlement', () => {
  it('an email SMTP took is sent, on any try', () => {
    expect(settlementOf(null, false)).to.deep.equal({ outcome: 'sent' });
    expect(settlementOf(null, true)).to.deep.equal({ outcome: 'sent' });
  });

  it('a temporary refusal is tried again, except on the last try, where it fails with SMTP\'s words', () => {
    const refused = new MailError('451 4.3.0 try later', 'retryable');
    expect(settlementOf(refused, false)).to.deep.equal({ outcome: 'retry' });
    expect(settlementOf(refused, true)).to.deep.equal({ outcome: 'failed', error: '451 4.3.0 try later' });
  });

  it('a permanent refusal fails at once with SMTP\'s words', () => {
    expect(settlementOf(new MailError('550 5.1.1 no such user', 'permanent'), false)).to.deep.equal({ outcome: 'failed', error: '550 5.1.1 no such user' });
  });

  it('an answer that never came is an unknown outcome, never another try', () => {
    const lost = new MailError('connection closed after DATA', 'unknown');
    for (const lastTry of [false, true]) expect(settlementOf(lost, lastTry)).to.deep.equal({ outcome: 'failed', error: `${OUTCOME_UNKNOWN} (connection closed after DATA)` });
  });
});
