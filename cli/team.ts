// `cardsvc team list --account ID`: an account's people and their roles, as the console's Team page shows them (the
// invitation verbs come with invitations).
import { parseArgs } from 'node:util';
import { presentMember } from '../api/team/present.ts';
import { resolveAccount } from '../services/api-keys.ts';
import { listMembers } from '../services/team/members.ts';
import type { CommandContext } from './context.ts';
import { positiveId } from './output.ts';

// More than any plan's seats (enterprise: 200), so one read lists everyone.
const ALL = 10_000;

async function list(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({ args, options: { account: { type: 'string' }, json: { type: 'boolean', default: false } }, strict: true });
  const services = await ctx.services();
  const account = await resolveAccount(services, positiveId(values.account, '--account'), false);
  const members = (await listMembers(services, account.id, { page: 1, perPage: ALL })).rows.map(presentMember);
  ctx.out.result({ members }, members.map((m) => `${m.user_id}\t${m.role}\t${m.totp_enabled ? 'two factors' : 'password only'}\t${m.email}\t${m.name}`).join('\n'));
}

export const teamCommands = { 'team list': list };
