// `cardsvc otp issue`: a one-time confirmation token from an operator's shell (the console issues them too).
import { parseArgs } from 'node:util';
import { TOKEN_PURPOSES, type TokenPurpose } from '../models/ConfirmationToken.ts';
import { resolveAccount } from '../services/api-keys.ts';
import { issueToken } from '../services/confirmation-tokens.ts';
import type { CommandContext } from './context.ts';
import { positiveId, UsageError } from './output.ts';

async function issue(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      sandbox: { type: 'boolean', default: false },
      purpose: { type: 'string' },
      resource: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const accountId = positiveId(values.account, '--account');
  if (!(TOKEN_PURPOSES as readonly string[]).includes(values.purpose ?? '')) {
    throw new UsageError(`--purpose must be one of ${TOKEN_PURPOSES.join(', ')}`);
  }
  const services = await ctx.services();
  const account = await resolveAccount(services, accountId, values.sandbox);
  const { token, expiresAt } = await issueToken(services, {
    accountId: account.id,
    purpose: values.purpose as TokenPurpose,
    resourceId: values.resource ?? null,
    now: new Date(),
  });
  ctx.out.message(`Issued a ${values.purpose} token for account ${account.id}; it works once, until ${expiresAt.toISOString()}.`);
  ctx.out.result({ token });
}

export const otpCommands = { 'otp issue': issue };
