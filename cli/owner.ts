// `cardsvc owner set-password --email E --password-stdin`: a console user's password (today each user owns an
// account), read from stdin so it stays out of the process list. The same service as the console's password change:
// every session of the user ends.
import { parseArgs } from 'node:util';
import { ownerNotFound } from '../lib/errors.ts';
import { setPassword } from '../services/console/sessions.ts';
import type { CommandContext } from './context.ts';
import { UsageError } from './output.ts';

async function setOwnerPassword(args: string[], ctx: CommandContext): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, 'password-stdin': { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
    strict: true,
  });
  if (!values.email) throw new UsageError('--email is required');
  if (!values['password-stdin']) throw new UsageError('--password-stdin is required (the password is read from stdin, never from the command line)');
  const password = await ctx.readPassword();
  const services = await ctx.services();
  const email = values.email.trim().toLowerCase();
  const user = await services.models.User.findOne({ where: { email } });
  if (!user) throw ownerNotFound(`No owner with the email ${email}`);
  await setPassword(services, user, password, ctx.config.passwordScryptLog2N);
  ctx.out.message(`Set the console password of ${email}; every session of that owner has ended.`);
  ctx.out.result({ ok: true });
}

export const ownerCommands = { 'owner set-password': setOwnerPassword };
