// The directory page pair: `GET /v2/api/pub/team-member-actions/list` pages at the end of a large directory
// against pages at its start, through the API process (keyset pages of 500 by `after_id`), rounds alternated;
// another account's members interleave with this one's, as on a shared database. Target: about 1 (a page's cost
// does not grow with its position).
import { createAccount } from '../services/accounts.ts';
import { alternatedRounds, type Pair } from './harness.ts';
import type { BenchContext } from './stack.ts';

const PER_PAGE = 500;

export const directoryPair: Pair<BenchContext> = {
  name: 'directory-pages',
  async run(ctx) {
    const { models, settings, api } = ctx;
    const memberCount = settings.quick ? 5000 : 100_000;
    const pagesPerSample = settings.quick ? 3 : 20;
    const stamp = Date.now();
    const { accountId, liveKey } = await createAccount(ctx, { name: 'Bench directory', ownerEmail: `bench-dir-${stamp}@example.com`, plan: 'enterprise' });
    const { accountId: neighbourId } = await createAccount(ctx, { name: 'Neighbour directory', ownerEmail: `bench-dir-n-${stamp}@example.com` });
    const at = new Date();
    for (let i = 0; i < memberCount; i += 1000) {
      const rows = [];
      for (let j = i; j < Math.min(i + 1000, memberCount); j++) {
        for (const account of [accountId, neighbourId]) {
          rows.push({ account_id: account, email: `m${j}@a${account}.example.com`, employee_id: `E${j}`, first_name: `First ${j}`, last_name: null, job_position: null, date_of_birth: null, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null, disabled: j % 10 === 0, created_at: at, updated_at: at });
        }
      }
      await models.TeamMember.bulkCreate(rows);
    }
    const firstId = await models.TeamMember.min<number, InstanceType<typeof models.TeamMember>>('id', { where: { account_id: accountId } });
    const lastId = await models.TeamMember.max<number, InstanceType<typeof models.TeamMember>>('id', { where: { account_id: accountId } });
    // The last pages: start far enough back that every sampled page is full.
    const nearEnd = lastId - 2 * PER_PAGE * (pagesPerSample + 1);

    // `pagesPerSample` consecutive pages after `afterId`; pages per second.
    const sample = (afterId: number) => async () => {
      let cursor = afterId;
      const started = performance.now();
      for (let p = 0; p < pagesPerSample; p++) {
        const res = await fetch(`${api.url}/v2/api/pub/team-member-actions/list?status=all&perPage=${PER_PAGE}&after_id=${cursor}`, { headers: { Authorization: `Bearer ${liveKey}` } });
        const body = (await res.json()) as { data: Array<{ id: number }>; meta: { next_after_id: number | null } };
        if (res.status !== 200 || body.data.length !== PER_PAGE) throw new Error(`directory page after ${cursor}: status ${res.status}, ${body.data?.length} rows`);
        cursor = body.meta.next_after_id ?? body.data.at(-1)!.id;
      }
      return pagesPerSample / ((performance.now() - started) / 1000);
    };
    const figures = await alternatedRounds('directory', { name: 'last pages', round: sample(nearEnd) }, { name: 'first pages', round: sample(firstId - 1) }, settings, 'pages/s');
    return [{ name: 'directory-pages', compares: `directory list, last vs first pages (${memberCount} members, pages of ${PER_PAGE})`, target: '≈ 1', unit: 'pages/s', ...figures, notes: { members: memberCount, neighbourMembers: memberCount, perPage: PER_PAGE, pagesPerSample } }];
  },
};
