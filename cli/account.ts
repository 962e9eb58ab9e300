// `cardsvc account create`: a live account, its sandbox, its owner and a full-access key for each.
import { parseArgs } from 'node:util';
import { createAccount } from '../services/accounts.ts';
import { assertPasswordLength } from '../services/console/sessions.ts';
import type { CommandContext } from './context.ts';
import { UsageError } from './output.ts';

export async function accountCreate(args: string[], ctx: CommandContext): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      plan: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.name) throw new UsageError('--name is required');
  if (!values['owner-email']) throw new UsageError('--owner-email is required');
  if (values.password !== undefined && values['password-stdin']) throw new UsageError('use --password or --password-stdin, not both');
  const password = values['password-stdin'] ? await ctx.readPassword() : values.password;
  // Checked before anything is written: a password given (even an empty stdin) is the console's, never none.
  if (password !== undefined) assertPasswordLength(password);
  const services = await ctx.services();
  const created = await createAccount(services, {
    name: values.name,
    ownerEmail: values['owner-email'],
    password,
    ...(values.plan === undefined ? {} : { plan: values.plan as 'free' }),
  }, { passwordScryptLog2N: ctx.config.passwordScryptLog2N });
  ctx.out.message(`Created account ${created.accountId} (sandbox ${created.sandboxAccountId}); the keys are shown only now.`);
  ctx.out.result({ ...created });
}
