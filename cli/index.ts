// The cardsvc operator command: `cardsvc <group> <action> [--flags] [--json]`.
import { loadConfig } from '../lib/config.ts';
import { openDatabase } from '../app/runtime.ts';
import { createServices, type Services } from '../app/services.ts';
import { pino } from 'pino';
import { createLogger } from '../lib/logger.ts';
import { accountCreate } from './account.ts';
import { fieldCommands } from './field.ts';
import { sendingCommands } from './sending.ts';
import { webhookCommands } from './webhook.ts';
import { keyCommands } from './key.ts';
import { otpCommands } from './otp.ts';
import { ownerCommands } from './owner.ts';
import { rewardsCommands } from './rewards.ts';
import type { CommandContext } from './context.ts';
import { createOutput, fail, UsageError } from './output.ts';

type Command = (args: string[], ctx: CommandContext) => Promise<void>;

const COMMANDS: Record<string, Command> = {
  'account create': accountCreate,
  ...keyCommands,
  ...otpCommands,
  ...ownerCommands,
  ...fieldCommands,
  ...webhookCommands,
  ...sendingCommands,
  ...rewardsCommands,
};

const USAGE = `Usage: cardsvc <command> [options] [--json]
Commands:
  account create --name NAME --owner-email EMAIL [--password P | --password-stdin] [--plan free|pro|enterprise]
  key create --account ID [--sandbox] (--full-access | --permissions ecards=manage,widgets=view,...) [--name N]
  key revoke --key-id ID
  key rotate --key-id ID [--grace-seconds N]
  key list --account ID
  owner set-password --email EMAIL --password-stdin        (ends every console session of the owner)
  otp issue --account ID [--sandbox] --purpose PURPOSE [--resource ID]
  field add --account ID [--sandbox] --key KEY --label LABEL [--required]
  field list --account ID [--sandbox]
  field remove --account ID [--sandbox] --key KEY
  webhook set-url --account ID [--sandbox] --url URL          ("" disables the ecard_shared webhook)
  webhook enable --account ID [--sandbox] --endpoint-id ID
  webhook secret --account ID [--sandbox] [--rotate]
  suppression add|remove --account ID [--sandbox] (--email ADDRESS | --domain DOMAIN)
  account suspend-sends|resume-sends --account ID [--sandbox]
  rewards settings --account ID [--sandbox] [--mode manual|provider] [--min N] [--max N] [--velocity on|off] [--expiry-days N]
  rewards set-rule --account ID [--sandbox] --period day|week|month --limit N   (--limit 0 removes the rule)
  rewards add-codes --account ID [--sandbox] --brand B --denomination N --file F   (lines: code[,pin][,expiry])`;

export async function runCli(argv: string[]): Promise<void> {
  const out = createOutput(argv.includes('--json'));
  let services: Services | undefined;
  const close = async () => {
    await services?.close();
    await services?.models.sequelize.close();
  };
  try {
    const [group, action, ...rest] = argv;
    if (group === undefined || group === '--help' || group === '-h') {
      out.message(USAGE);
      if (group === undefined) process.exit(2);
      return;
    }
    const command = COMMANDS[`${group} ${action ?? ''}`];
    if (!command) throw new UsageError(`unknown command "${[group, action].filter(Boolean).join(' ')}" (cardsvc --help lists them)`);
    const config = loadConfig();
    await command(rest, {
      config,
      out,
      services: async () => (services ??= createServices({ config, logger: createLogger(config, pino.destination(2)), models: await openDatabase(config, 'migrate') })),
    });
  } catch (err) {
    await close();
    fail(out, err);
  }
  await close();
}
