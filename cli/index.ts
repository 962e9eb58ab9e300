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
import { teamCommands } from './team.ts';
import { processIo, readAll, type CliIo, type CommandContext } from './context.ts';
import { createOutput, failure, UsageError } from './output.ts';
import { isTerminal, promptNewPassword } from './password-prompt.ts';
import { MIN_PASSWORD_LENGTH } from '../services/console/sessions.ts';

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
  ...teamCommands,
};

const USAGE = `Usage: cardsvc <command> [options] [--json]
Commands:
  account create --name NAME --owner-email EMAIL [--password P | --password-stdin] [--plan free|pro|enterprise]
  key create --account ID [--sandbox] (--full-access | --permissions ecards=manage,widgets=view,...) [--name N]
  key revoke --key-id ID
  key rotate --key-id ID [--grace-seconds N]
  key list --account ID
  owner set-password --email EMAIL --password-stdin        (ends every console session of the owner)
  team list --account ID                                    (the account's people and their roles)
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

/** Runs one command and answers its exit code: 0 done, 1 failed (one line on stderr), 2 no command given. */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  const out = createOutput(argv.includes('--json'), io);
  let services: Services | undefined;
  const close = async () => {
    await services?.close();
    await services?.models.sequelize.close();
  };
  try {
    const [group, action, ...rest] = argv;
    if (group === undefined || group === '--help' || group === '-h') {
      out.message(USAGE);
      return group === undefined ? 2 : 0;
    }
    const command = COMMANDS[`${group} ${action ?? ''}`];
    if (!command) throw new UsageError(`unknown command "${[group, action].filter(Boolean).join(' ')}" (cardsvc --help lists them)`);
    const config = loadConfig(io.env);
    // The logger writes where the command's messages go; in the process that is fd 2, written synchronously.
    const logs = io === processIo ? pino.destination(2) : { write: (line: string) => io.stderr(line) };
    await command(rest, {
      config,
      out,
      readPassword: () => (isTerminal(io.stdin) ? promptNewPassword(io.stdin, (text) => io.stderr(text), MIN_PASSWORD_LENGTH) : readAll(io.stdin)),
      services: async () => (services ??= createServices({ config, logger: createLogger(config, logs), models: await openDatabase(config, 'migrate') })),
    });
    return 0;
  } catch (err) {
    return failure(out, err, io);
  } finally {
    await close();
  }
}
