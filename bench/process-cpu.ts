// Which process of the bench's stack uses the cores, second by second: a profile shows where one process spends
// its time, this shows which process the machine's two cores go to (the accepts share them among the API, MariaDB,
// the dev server and the worker; their bare side is the dev server and the harness). Run it beside a bench:
//   node --import tsx bench/process-cpu.ts sample <file.jsonl>            (until stopped; one line a second)
//   node --import tsx bench/process-cpu.ts summary <file.jsonl> --from 04:07:25 --to 04:10:25 --when 'api>40'
// `summary` averages the seconds in the window (UTC clock times; a window may cross midnight) that meet `--when`
// (`<role>` `>` or `<` `<percent>`, joined by `,`), as shares of one core per role.
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { inClockWindow } from './clock-window.ts';

const ROLES: Array<[string, RegExp]> = [
  ['api', /bin\/api\.ts/],
  ['worker', /bin\/worker\.ts/],
  ['temporal', /start-dev/],
  ['mariadb', /mariadbd/],
  ['bare', /bench\/(hello-server|bare-server|bare-card-page|api-without-limiter)\.ts/],
  ['harness', /bench\/run\.ts/],
];
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

type Sample = Record<string, number> & { t: number };

const roleOf = (pid: string): string | undefined => {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return ROLES.find(([, pattern]) => pattern.test(cmdline))?.[0];
  } catch {
    return undefined;
  }
};

/** utime + stime of every process now, in ticks. */
function ticksByPid(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone since the listing
    }
  }
  return ticks;
}

async function sample(file: string): Promise<never> {
  writeFileSync(file, '');
  let before = ticksByPid();
  for (;;) {
    await sleep(1000);
    const now = ticksByPid();
    const line: Sample = { t: Date.now() };
    for (const [pid, ticks] of now) {
      const used = ticks - (before.get(pid) ?? ticks);
      const role = used > 0 ? roleOf(pid) : undefined;
      if (role) line[role] = (line[role] ?? 0) + Math.round((used / TICKS_PER_SECOND) * 100);
    }
    before = now;
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }
}

function summary(file: string, args: string[]): void {
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const [from, to] = [option('--from') ?? '00:00:00', option('--to') ?? '23:59:59'];
  const conditions = (option('--when') ?? '').split(',').filter(Boolean).map((c) => {
    const [, role, op, value] = /^(\w+)([<>])(\d+)$/.exec(c) ?? [];
    if (!role) throw new Error(`--when: ${c} is not <role>(<|>)<percent>`);
    return (s: Sample) => (op === '>' ? (s[role] ?? 0) > Number(value) : (s[role] ?? 0) < Number(value));
  });
  const seconds = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Sample)
    .filter((s) => inClockWindow(s.t, from, to) && conditions.every((meets) => meets(s)));
  const roles = ROLES.map(([role]) => role);
  const average = (role: string) => Math.round(seconds.reduce((sum, s) => sum + (s[role] ?? 0), 0) / Math.max(1, seconds.length));
  const shares = roles.map((role) => `${role} ${average(role)} %`).join(', ');
  console.log(`${seconds.length} s: ${shares}; all ${roles.reduce((sum, role) => sum + average(role), 0)} % of ${100 * availableParallelism()} %`);
}

const [command, file, ...rest] = process.argv.slice(2);
if (command === 'sample' && file) await sample(file);
else if (command === 'summary' && file) summary(file, rest);
else {
  console.error('usage: process-cpu.ts sample <file.jsonl> | summary <file.jsonl> [--from hh:mm:ss] [--to hh:mm:ss] [--when role>n,role<n]');
  process.exit(2);
}
