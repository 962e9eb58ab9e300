// Drill: the database cut for 30 s, and stalled (every byte held), through a TCP proxy the drill owns between the
// API and worker and MariaDB: meanwhile the API answers 503 with Retry-After; afterwards every accepted send ends.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { eventually } from '../helpers/eventually.ts';
import { DRILLS_DATABASE_URL, expectPass, mailsTo, settled, startDrill, step, stopChildren, type Drill, type Tenant } from './harness.ts';
import { startDbProxy, type DbProxy } from '../helpers/db-proxy.ts';

const OUTAGE_SECONDS = { cut: 30, stall: 15 };

for (const kind of ['cut', 'stall'] as const) {
  describe(`drill: database ${kind === 'cut' ? 'cut' : 'stalled'} for ${OUTAGE_SECONDS[kind]} s through a proxy`, function () {
    it('the API answers 503 with Retry-After meanwhile; every send accepted before or after ends, one email at most', async () => {
      const proxy: DbProxy = await startDbProxy(DRILLS_DATABASE_URL);
      const drill: Drill = await startDrill({ databaseUrl: proxy.url });
      const tenant = await drill.newTenant(`db-${kind}`);
      const domain = `drill-db-${kind}-${process.pid}.example.com`;
      const { received, stop } = mailsTo(drill.smtp, domain);
      let n = 0;
      const body = (t: Tenant) => ({ ecardId: t.ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: `R${n}`, recipientEmail: `r${n++}@${domain}` });
      const send = (t: Tenant) => t.api('POST', '/pub/ecard-actions/send-ecard', body(t));
      // A request during the outage: its answer, or `timeout` when none came within 5 s (a failure of the drill).
      const tryDuringOutage = async (t: Tenant) => {
        const started = Date.now();
        try {
          const res = await fetch(`${drill.url}/v2/api/pub/ecard-actions/send-ecard`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${t.account.liveKey}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(body(t)),
            signal: AbortSignal.timeout(5000),
          });
          await res.arrayBuffer();
          return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: Date.now() - started };
        } catch {
          return { status: 'timeout' as const, retryAfter: null, ms: Date.now() - started };
        }
      };
      const worker = drill.startWorker();
      try {
        const accepted: string[] = [];
        const accept = async () => {
          const res = await send(tenant);
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          accepted.push(res.body.sendId as string);
        };
        for (let i = 0; i < 10; i++) await accept();
        // Cut (or stalled) while those go out, once the worker is up (a worker that cannot reach the database at its
        // start exits, for its supervisor to start again).
        await eventually(async () => received.length, (k) => k >= 1, 60_000, 100);
        if (kind === 'cut') proxy.cut();
        else proxy.stall();
        const outageEnds = Date.now() + OUTAGE_SECONDS[kind] * 1000;
        const answers: Array<Awaited<ReturnType<typeof tryDuringOutage>>> = [];
        while (Date.now() < outageEnds - 6000) {
          answers.push(await tryDuringOutage(tenant));
          await sleep(1000);
        }
        step(`during the outage: ${JSON.stringify(answers)}`);
        expect(answers.length).to.be.at.least(2);
        // Every request answered 503 with Retry-After within 5 s: cut, at once; stalled, when a statement on a pooled
        // connection times out (DATABASE_STATEMENT_TIMEOUT_MS) or a new connection's handshake does; never a 500.
        const allowed = (a: (typeof answers)[number]) => a.status === 503 && a.retryAfter !== null && a.ms < 5000;
        expect(answers.filter((a) => !allowed(a)), JSON.stringify(answers)).to.deep.equal([]);
        await sleep(Math.max(0, outageEnds - Date.now()));
        proxy.restore();
        for (let i = 0; i < 5; i++) await accept();
        step('restored');
        await settled(drill.models, tenant.account.accountId, 60_000).catch((err: Error) => {
          throw new Error(`${err.message}\nworker (exit ${worker.child.exitCode}):\n${worker.output()}`);
        });
        expect(worker.child.exitCode, `the worker exited:\n${worker.output()}`).to.equal(null);
        // Nothing accepted was lost, nothing refused was kept: the account's sends are exactly the accepted ones, all of
        // them ended (settled).
        const sends = await drill.models.Send.findAll({ attributes: ['send_id'], where: { account_id: tenant.account.accountId }, raw: true });
        const ids = new Set(sends.map((s) => s.send_id));
        expect(accepted.filter((id) => !ids.has(id)), 'accepted sends lost').to.deep.equal([]);
        expect(sends.length, 'sends kept from refused requests').to.equal(accepted.length);
        await expectPass(drill.models, tenant, drill.receiver, received);
      } finally {
        stop();
        proxy.restore();
        await stopChildren(worker, drill.api);
      }
    });
  });
}
