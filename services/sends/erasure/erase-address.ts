// Erasing a stranger's address (POST /pub/ecard-actions/erase-address): someone who is not a member of the
// account's directory — a widget's sender, a recipient typed into a send — asks to be forgotten. A member is erased
// as a member (the directory's erasure), so the address is refused here when it is one. Every area that holds
// addresses reacts through `ctx.hooks.addressErased` in one transaction under the account's lock: this area's part
// (sends, recipients, unsubscribe links, the suppression list) is below; mail, webhooks, rewards, campaigns and the
// widget register theirs. The rows stay (counts, quota, history) without the address, the names beside it and any
// text that quoted it. A suppressed address stays suppressed by its hash.
import { Op, literal, fn, col, where as sqlWhere, type Transaction } from 'sequelize';
import { directoryMember } from '../../../lib/errors.ts';
import type { Models } from '../../../models/index.ts';
import { accountTransaction } from '../../account-lock.ts';
import type { ServiceContext } from '../../context.ts';
import { scrubColumns } from '../../erase-text.ts';
import { cancelUnclaimedSends } from './redact.ts';
import { suppressionHash } from '../accept/rules.ts';

const lowerIs = (column: string, email: string) => sqlWhere(fn('LOWER', col(column)), email);

/** The account's sends, as a condition on a table with a `send_id` (no list of ids in memory). */
const ofAccountSends = (models: Models, accountId: number) =>
  literal(`\`send_id\` IN (SELECT \`id\` FROM \`${models.Send.getTableName() as string}\` WHERE \`account_id\` = ${Number(accountId)})`);

/** This area's part: the address leaves the account's sends and recipients; a suppression becomes its hash. */
export async function eraseAddressFromSends(ctx: Pick<ServiceContext, 'models'>, accountId: number, email: string, at: Date, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  // Sent by the address: the sender's name and address, the message it wrote, the merge tags; the cards rendered for
  // its recipients named it (they are dropped, as an erased member's are).
  const sent = await models.Send.findAll({ attributes: ['id'], where: { account_id: accountId, [Op.and]: [lowerIs('sender_email', email)] }, transaction });
  const sentIds = sent.map((s) => s.id);
  if (sentIds.length) {
    // What it sent that has not gone yet never goes (a card from nobody).
    await cancelUnclaimedSends(ctx, sentIds, 'the sender was erased', transaction, at);
    await models.Send.update({ sender_email: '', sender_name: '', personal_message: null, merge_tags: null }, { where: { id: sentIds }, transaction, silent: true });
    await models.SendRecipient.update({ rendered_subject: null, rendered_header: null, rendered_html: null }, { where: { send_id: sentIds }, transaction });
  }
  // Sent to the address: the recipient row loses name, address and card (as redactSends does for a member).
  const received = await models.SendRecipient.findAll({ attributes: ['id', 'send_id'], where: { [Op.and]: [ofAccountSends(models, accountId), lowerIs('recipient_email', email)] }, transaction });
  if (received.length) {
    // A card to it not yet on its way never goes (the send's other recipients still get theirs).
    await models.SendRecipient.update(
      { status: 'canceled', error: 'the recipient was erased', finished_at: at },
      { where: { id: received.map((r) => r.id), status: 'pending', claimed_at: { [Op.is]: null } }, transaction },
    );
    await models.SendRecipient.update(
      { recipient_name: '', recipient_email: null, rendered_subject: null, rendered_header: null, rendered_html: null },
      { where: { id: received.map((r) => r.id) }, transaction },
    );
    await models.Send.update({ merge_tags: null }, { where: { id: [...new Set(received.map((r) => r.send_id))], account_id: accountId }, transaction, silent: true });
  }
  // Whatever still quotes it (an SMTP error naming the address, a message or a tag that repeated it).
  await scrubColumns(models.Send, { account_id: accountId }, { text: ['sender_name', 'personal_message', 'error', 'override_props'], json: ['merge_tags'] }, email, transaction);
  await scrubColumns(models.SendRecipient, ofAccountSends(models, accountId), { text: ['recipient_name', 'rendered_subject', 'rendered_header', 'rendered_html', 'error'] }, email, transaction);
  await models.UnsubscribeLink.destroy({ where: { account_id: accountId, email }, transaction });
  await models.Suppression.update({ value: suppressionHash(email) }, { where: { account_id: accountId, kind: 'email', value: email }, transaction });
}

export interface ErasedAddressResult {
  /** The address stays blocked (its hash is on the suppression list). */
  suppressed: boolean;
}

/** Erases `email` (not a member) from everything the account holds; 422 `directory_member` for a member of its directory. */
export async function eraseAddress(ctx: ServiceContext, accountId: number, rawEmail: string): Promise<ErasedAddressResult> {
  const { models } = ctx;
  const email = rawEmail.trim().toLowerCase();
  const erasure = ctx.hooks.addressErased(accountId);
  const result = await accountTransaction(ctx, accountId, async (transaction) => {
    const member = await models.TeamMember.findOne({ where: { account_id: accountId, email }, attributes: ['id'], transaction });
    if (member) {
      throw directoryMember(`${email} is a member of this account's directory: erase the member (POST /pub/team-member-actions/delete) instead`, { extra: { member_id: member.id } });
    }
    await erasure.inTransaction({ email }, transaction);
    const suppressed = await models.Suppression.count({ where: { account_id: accountId, kind: 'email', value: suppressionHash(email) }, transaction });
    return { suppressed: suppressed > 0 };
  });
  await erasure.afterCommit();
  return result;
}
