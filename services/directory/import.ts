// A bulk import of members: each row goes through the upsert's rules (match, conflicts, required fields, manager,
// seats) and, unless it is a dry run, its write; no member events (source `import`). Rows are taken in batches of
// IMPORT_BATCH_ROWS, each in its own account transaction, so a big file never holds the account lock for long.
// A dry run writes nothing and counts seats across the whole file; a failure mid-apply keeps the batches already
// committed (re-running the same file finishes the job: the rows already applied come back unchanged).
import { ApiError, seatLimitReached } from '../../lib/errors.ts';
import type { ServiceContext } from '../context.ts';
import { accountTransaction } from '../account-lock.ts';
import { seatsUsed } from './seats.ts';
import { applyPlan, planUpsert, type MatchField, type MemberFieldsInput, type UpsertRequest } from './upsert.ts';

export const IMPORT_BATCH_ROWS = 200;
/** The problems an answer lists (the count covers all of them). */
export const MAX_REPORTED_PROBLEMS = 100;

/** A row of the file: its fields as the upsert takes them, or why it cannot be read. */
export type ImportRow = { line: number; fields: MemberFieldsInput } | { line: number; problem: string };

export interface ImportProblem {
  row: number;
  message: string;
}

export interface ImportOutcome {
  dry_run: boolean;
  rows: number;
  creates: number;
  updates: number;
  unchanged: number;
  errors: number;
  problems: ImportProblem[];
  problems_truncated: boolean;
}

const seatMessage = (limit: number, plan: string) =>
  `All ${limit} seats of the ${plan} plan would be taken by active members; deactivate some or upgrade the plan`;

export async function importMembers(ctx: ServiceContext, accountId: number, input: { rows: ImportRow[]; matchField: MatchField; dryRun: boolean }): Promise<ImportOutcome> {
  const { matchField, dryRun } = input;
  const outcome: ImportOutcome = { dry_run: dryRun, rows: input.rows.length, creates: 0, updates: 0, unchanged: 0, errors: 0, problems: [], problems_truncated: false };
  const problem = (row: number, message: string) => {
    outcome.errors++;
    if (outcome.problems.length < MAX_REPORTED_PROBLEMS) outcome.problems.push({ row, message });
    else outcome.problems_truncated = true;
  };

  // Rows that cannot be read, lack the match value or repeat an earlier row's are errors in both modes, so a dry
  // run and the apply after it agree.
  const firstLine = new Map<string, number>();
  const valid: Array<{ line: number; fields: MemberFieldsInput }> = [];
  for (const row of input.rows) {
    if ('problem' in row) {
      problem(row.line, row.problem);
      continue;
    }
    const key = row.fields[matchField];
    if (!key) {
      problem(row.line, `${matchField} is required (match_field is ${matchField})`);
      continue;
    }
    const earlier = firstLine.get(key.toLowerCase());
    if (earlier !== undefined) {
      problem(row.line, `${matchField} ${JSON.stringify(key)} is already on row ${earlier}`);
      continue;
    }
    firstLine.set(key.toLowerCase(), row.line);
    valid.push(row);
  }

  // Seats are counted here, in both modes, so a dry run and the apply agree: a create past the plan's seats is a row
  // error, and the apply's seat (taken by applyPlan) is then always free. A dry run creates nothing, so it counts
  // across the whole file; the apply reads the seats row again each batch, under the account's lock (no other
  // member write of the account runs meanwhile).
  let seatsLeft: number | undefined;
  for (let start = 0; start < valid.length; start += IMPORT_BATCH_ROWS) {
    const batch = valid.slice(start, start + IMPORT_BATCH_ROWS);
    await accountTransaction(ctx, accountId, async (transaction, account) => {
      if (!dryRun || seatsLeft === undefined) {
        seatsLeft = ctx.config.seats[account.plan] - (await seatsUsed(ctx, accountId, transaction));
      }
      for (const row of batch) {
        const request: UpsertRequest = { fields: row.fields, matchField, dryRun, source: 'import', ignored: [] };
        let plan;
        try {
          // Only reads: a refused row leaves the transaction as it was.
          plan = await planUpsert(ctx, account, request, transaction);
        } catch (err) {
          if (!(err instanceof ApiError) || err.status >= 500) throw err;
          problem(row.line, err.message);
          continue;
        }
        if (plan.current && !plan.changed.length) {
          outcome.unchanged++;
          continue;
        }
        if (!plan.current) {
          if (seatsLeft <= 0) {
            problem(row.line, seatLimitReached(seatMessage(ctx.config.seats[account.plan], account.plan)).message);
            continue;
          }
          seatsLeft--;
        }
        if (!dryRun) await applyPlan(ctx, account, request, plan, transaction);
        if (plan.current) outcome.updates++;
        else outcome.creates++;
      }
    });
  }
  return outcome;
}
