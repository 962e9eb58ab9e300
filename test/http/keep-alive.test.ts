import { Agent, request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { expect } from 'chai';
import Koa from 'koa';
import { listen } from '../../api/server.ts';
import { extraApp, testStack } from '../helpers/stack.ts';

const seconds = (n: number) => new Promise((resolve) => setTimeout(resolve, n * 1000));

// One GET on the agent; resolves with the status, whether the socket was a reused one, and the socket.
function get(url: string, agent: Agent): Promise<{ status: number; reused: boolean; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/healthz`, { agent }, (res: IncomingMessage) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket, socket: req.socket! }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP keep-alive (HTTP_KEEP_ALIVE_TIMEOUT_MS)', function () {
  this.timeout(30_000);

  it('a kept-alive connection is reused after 6 s idle (Node’s default would have closed it at 5 s): both 200, no reset', async () => {
    const { url } = await testStack();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(url, agent);
      await seconds(6);
      const second = await get(url, agent);
      expect([first.status, second.status]).to.deep.equal([200, 200]);
      expect(second.reused).to.equal(true);
      expect(second.socket).to.equal(first.socket);
    } finally {
      agent.destroy();
    }
  });

  it('with the setting shrunk to 2 s, the server closes an idle connection after about 2 s', async () => {
    const api = await extraApp({ env: { HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000' } });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { status, socket } = await get(api.url, agent);
      expect(status).to.equal(200);
      const idleSince = Date.now();
      const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - idleSince)));
      await seconds(1);
      expect(socket.destroyed, 'still open after 1 s').to.equal(false);
      const after = await closed;
      expect(after).to.be.within(1500, 4000);
    } finally {
      agent.destroy();
    }
  });
});

/** A bare server (the API's `listen`) whose every request takes `delay` seconds to answer. */
function slowServer(delay: number, body: string) {
  const app = new Koa<never>();
  app.use(async (ctx) => {
    await seconds(delay);
    ctx.body = body;
  });
  return listen(app, 0, '127.0.0.1');
}

describe('stopping the HTTP server (SIGTERM, a rolling deploy)', function () {
  this.timeout(30_000);

  it('a request in flight is answered; a kept-alive idle connection is closed at once; new connections are refused', async () => {
    const server = await slowServer(1, 'done');
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    try {
      const idle = await get(server.url, agent);
      const inFlight = get(server.url, new Agent());
      await seconds(0.2);
      const stopped = server.close();
      const answered = await inFlight;
      await stopped;
      expect(answered.status).to.equal(200);
      expect(idle.socket.destroyed, 'the idle kept-alive socket').to.equal(true);
      const refused = await get(server.url, new Agent()).then(() => 'answered', (err: NodeJS.ErrnoException) => err.code);
      expect(refused).to.equal('ECONNREFUSED');
    } finally {
      agent.destroy();
    }
  });

  it('a request still running after the grace period is cut', async () => {
    const server = await slowServer(5, 'late');
    const inFlight = get(server.url, new Agent()).then(() => 'answered', (err: NodeJS.ErrnoException) => err.code);
    await seconds(0.2);
    await server.close(1000);
    expect(await inFlight).to.equal('ECONNRESET');
  });
});
