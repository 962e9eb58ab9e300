// The one rule both catalogue deletes follow: nothing in use → delete; one thing in use → its own token,
// spent in the delete's transaction; several in use → refused with the impact of each, to go one at a time.
import type { Transaction } from 'sequelize';
import type { TokenPurpose } from '../models/ConfirmationToken.ts';
import type { Models } from '../models/index.ts';
import { confirmationRequired, spendToken } from './confirmation-tokens.ts';
import { writeTransaction } from '../lib/db.ts';

export async function deleteGatedByToken(
  input: {
    models: Models;
    accountId: number;
    now: Date;
    /** What is being deleted, for messages: "widget", "eCard". */
    noun: string;
    purpose: TokenPurpose;
    /** One entry per thing in use, with its id. */
    impact: Array<{ id: number }>;
    token: string | undefined;
  },
  destroy: (transaction: Transaction) => Promise<void>,
): Promise<void> {
  const { models, impact, noun } = input;
  if (impact.length > 1) {
    throw confirmationRequired(input.purpose, `Several of these ${noun}s are in use: delete them one at a time, each with its own otp_confirmation_token`, { impact });
  }
  await writeTransaction(models.sequelize, async (transaction) => {
    const gated = impact[0];
    if (gated) {
      const message = `The ${noun} ${gated.id} is in use: deleting it needs an otp_confirmation_token issued for it`;
      await spendToken(
        { models },
        { accountId: input.accountId, purpose: input.purpose, resourceId: String(gated.id), token: input.token, now: input.now, message, extra: { impact } },
        transaction,
      );
    }
    await destroy(transaction);
  });
}
