// A widget send under a real API death between its commit and its workflow's start: the API is a child process
// (`node --import tsx bin/api.ts`) whose Temporal address is a listener of this test that kills it (SIGKILL) the
// moment it dials, which it does only when its send starter starts the send's workflow, after the commit (and
// right after the answer, which may or may not reach the visitor first). The stack's worker sweeps the committed
// send and the card goes out once, and the visitor's retry with the same form token answers the same send.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { expect } from 'chai';
import { newAccount } from '../helpers/api.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { eventually } from '../helpers/eventually.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testEnv, testStack } from '../helpers/stack.ts';
import { startServiceChild, type WorkerChild } from '../helpers/worker-child.ts';
import { address, postSend, sendBody } from './send-helpers.ts';

/** A TCP listener standing in for Temporal: the first connection after `arm` kills the child. */
async function killingTemporal(): Promise<{ address: string; arm: (child: WorkerChild) => void; dialed: () => number }> {
  let target: WorkerChild | undefined;
  let dials = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    dials += 1;
    target?.child.kill('SIGKILL');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onSuiteEnd(() => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  }));
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, arm: (child) => (target = child), dialed: () => dials };
}

async function waitAlive(url: string, child: WorkerChild): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child.child.exitCode !== null || child.child.signalCode !== null) throw new Error(`the API exited during start-up:\n${child.output()}`);
    if ((await fetch(`${url}/healthz`).then((r) => r.status, () => 0)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API did not start:\n${child.output()}`);
}

describe('widget send: the API killed between the commit and the workflow start', function () {
  this.timeout(120_000);

  it('the committed send is started by the sweeper: the card goes out once, and a retry answers the same send', async () => {
    const stack = await testStack();
    const smtp = await testSmtpServer();
    const temporal = await killingTemporal();
    const env = await testEnv({ TEMPORAL_ADDRESS: temporal.address, LOG_LEVEL: 'warn', TEMPORAL_TASK_QUEUE: stack.taskQueue });
    const url = env.PUBLIC_BASE_URL!;
    const api = startServiceChild('bin/api.ts', env);
    await waitAlive(url, api);
    const account = await newAccount(stack.models);
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId);
    const to = address('crash');
    const body = sendBody(stack, widget, ecards[0]!, { recipients: [{ name: 'Rita', email: to }] });
    temporal.arm(api);
    const answer = await postSend(url, widget.vanity_id, body).catch(() => undefined);
    expect(await api.exited, api.output()).to.equal('SIGKILL');
    expect(temporal.dialed()).to.be.at.least(1);
    const [send] = await stack.models.Send.findAll({ where: { account_id: account.accountId } });
    expect(send, 'the send was committed before the start').to.not.equal(undefined);
    // An answer that made it out before the kill names the committed send.
    if (answer) expect(answer.body.sendId, JSON.stringify(answer.body)).to.equal(send!.send_id);
    // (Whether the sweeper has already started it by now is a race this test does not look at.)
    expect(send).to.deep.include({ origin: 'widget' });

    // The stack's worker sweeps it; the recipient gets exactly one email.
    await eventually(async () => smtp.to(to), (m) => m.length === 1, 60_000, 200);
    const ended = await eventually(() => send!.reload(), (s) => s.status === 'sent', 30_000, 200);
    expect(ended).to.deep.include({ workflow_started: true, emails_sent: 1 });

    // The visitor's retry (same form token) on a live API answers the same send and sends nothing more.
    const retry = await postSend(stack.url, widget.vanity_id, body);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    expect(retry.body.sendId).to.equal(send!.send_id);
    expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(1);
    expect(smtp.to(to)).to.have.length(1);
  });
});
