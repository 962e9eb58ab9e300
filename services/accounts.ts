// Accounts: a live account, its sandbox twin, its owner (a new user with the membership `owner`), a full-access key and
// a default brand for each, made together.
import type { ServiceContext } from './context.ts';
import { UniqueConstraintError } from 'sequelize';
import { z } from 'zod';
import { type ApiError, ownerEmailTaken as ownerEmailTakenError } from '../lib/errors.ts';
import { hashPassword } from '../lib/passwords.ts';
import { PLANS } from '../models/Account.ts';
import { createApiKey } from './api-keys.ts';
import { createDefaultBrand } from './brands/brands.ts';
import { addMember } from './team/members.ts';
import { writeTransaction } from '../lib/db.ts';

export const CreateAccountInput = z.object({
  name: z.string().trim().min(1, 'name is required').max(200),
  ownerEmail: z.string().trim().toLowerCase().pipe(z.email('owner email is not a valid email address')),
  password: z.string().optional(),
  plan: z.enum(PLANS).default('free'),
});
export type CreateAccountInput = z.input<typeof CreateAccountInput>;

export interface CreatedAccount {
  accountId: number;
  sandboxAccountId: number;
  liveKey: string;
  liveKeyId: number;
  sandboxKey: string;
  sandboxKeyId: number;
}

function ownerEmailTaken(email: string): ApiError {
  return ownerEmailTakenError(`An owner with the email ${email} already exists`);
}

/** `passwordScryptLog2N`: the configured cost of the owner's password hash (the default otherwise). */
export async function createAccount(ctx: Pick<ServiceContext, 'models'>, rawInput: CreateAccountInput, options: { passwordScryptLog2N?: number } = {}): Promise<CreatedAccount> {
  const { models } = ctx;
  const input = CreateAccountInput.parse(rawInput);
  // One person owns one account for now: an email that is already a user's is refused, as owners' were.
  if (await models.User.findOne({ where: { email: input.ownerEmail } })) throw ownerEmailTaken(input.ownerEmail);
  const passwordHash = input.password ? await hashPassword(input.password, options.passwordScryptLog2N) : null;
  try {
    return await writeTransaction(models.sequelize, async (transaction) => {
      const owner = await models.User.create({ email: input.ownerEmail, password_hash: passwordHash }, { transaction });
      const live = await models.Account.create(
        { name: input.name, plan: input.plan, mode: 'live', live_account_id: null, owner_user_id: owner.id },
        { transaction },
      );
      const sandbox = await models.Account.create(
        { name: input.name, plan: input.plan, mode: 'sandbox', live_account_id: live.id },
        { transaction },
      );
      // Each account, the sandbox twin too, starts with its default brand, named after it, and no seat in use.
      await createDefaultBrand(ctx, live.id, input.name, transaction);
      await createDefaultBrand(ctx, sandbox.id, input.name, transaction);
      await models.MemberSeats.bulkCreate([{ account_id: live.id, used: 0 }, { account_id: sandbox.id, used: 0 }], { transaction });
      await addMember(ctx, { accountId: live.id, userId: owner.id, role: 'owner' }, transaction);
      const liveKey = await createApiKey(ctx, { accountId: live.id, mode: 'live', name: 'Default', fullAccess: true }, transaction);
      const sandboxKey = await createApiKey(ctx, { accountId: sandbox.id, mode: 'test', name: 'Default', fullAccess: true }, transaction);
      return {
        accountId: live.id,
        sandboxAccountId: sandbox.id,
        liveKey: liveKey.key,
        liveKeyId: liveKey.keyId,
        sandboxKey: sandboxKey.key,
        sandboxKeyId: sandboxKey.keyId,
      };
    });
  } catch (err) {
    // Two creators racing for one email: the unique index decides.
    if (err instanceof UniqueConstraintError) throw ownerEmailTaken(input.ownerEmail);
    throw err;
  }
}
