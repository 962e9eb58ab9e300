// The operator command (see cli/index.ts).
import { runCli } from '../cli/index.ts';

process.exitCode = await runCli(process.argv.slice(2));
