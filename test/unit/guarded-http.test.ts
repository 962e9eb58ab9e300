import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { TargetRefusedError, checkTargetUrl, guardedPost, isBlockedAddress, resolveTarget } from '../../lib/guarded-http.ts';
import type { GuardOptions } from '../../lib/guarded-http.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Receiver {
  server: Server;
  port: number;
  received: Received[];
}

// A loopback HTTP server that records every request and answers by path.
async function startReceiver(redirectTarget?: () => string): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url === '/hang') return; // never answers
      if (req.url === '/metadata-redirect') {
        res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data' }).end();
      } else if (req.url === '/redirect' && redirectTarget) {
        res.writeHead(302, { Location: redirectTarget() }).end();
      } else if (req.url === '/big') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('a'.repeat(100 * 1024));
      } else {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Receiver': 'yes' }).end('ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, received };
}

async function stopReceiver(receiver: Receiver | undefined): Promise<void> {
  if (!receiver) return;
  receiver.server.closeAllConnections();
  await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
}

async function refusal(promise: Promise<unknown>): Promise<TargetRefusedError> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(TargetRefusedError);
    return err as TargetRefusedError;
  }
  throw new Error('expected the target to be refused');
}

// Fails the test if a lookup happens where none should (IP literals).
const noLookup: GuardOptions['lookup'] = async (hostname) => {
  throw new Error(`unexpected lookup of ${hostname}`);
};

describe('guarded-http', () => {
  describe('isBlockedAddress and resolveTarget (allowPrivate false)', () => {
    // [URL host as written, address it must be reported as]
    const refused: Array<[string, string]> = [
      ['127.0.0.1', '127.0.0.1'],
      ['10.1.2.3', '10.1.2.3'],
      ['172.16.0.1', '172.16.0.1'],
      ['192.168.1.1', '192.168.1.1'],
      ['169.254.169.254', '169.254.169.254'],
      ['100.64.0.1', '100.64.0.1'],
      ['0.0.0.0', '0.0.0.0'],
      ['224.0.0.1', '224.0.0.1'],
      ['255.255.255.255', '255.255.255.255'],
      ['[::1]', '::1'],
      ['[::]', '::'],
      ['[fe80::1]', 'fe80::1'],
      ['[fc00::1]', 'fc00::1'],
      ['[fd00:ec2::254]', 'fd00:ec2::254'],
      ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
      ['[::ffff:7f00:1]', '::ffff:7f00:1'],
      ['[64:ff9b::7f00:1]', '64:ff9b::7f00:1'],
      // Decimal, octal, hex and short IPv4 spellings: the URL parser normalizes them to dotted quads.
      ['2130706433', '127.0.0.1'],
      ['0177.0.0.1', '127.0.0.1'],
      ['0x7f.1', '127.0.0.1'],
      ['127.1', '127.0.0.1'],
    ];
    for (const [host, address] of refused) {
      it(`refuses ${host}`, async () => {
        expect(isBlockedAddress(address), `isBlockedAddress(${address})`).to.equal(true);
        // https, so the refusal comes from the address check and not from the scheme rule.
        const err = await refusal(resolveTarget(`https://${host}/hook`, { allowPrivate: false, lookup: noLookup }));
        expect(err.message).to.equal(`address ${address} is not allowed`);
      });
    }

    for (const url of ['http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.1/', 'http://127.1/']) {
      it(`refuses ${url}`, async () => {
        await refusal(resolveTarget(url, { allowPrivate: false, lookup: noLookup }));
      });
    }

    it('refuses the other special-purpose ranges', () => {
      for (const address of [
        '192.0.0.8', '192.0.2.1', '198.18.0.1', '198.19.255.255', '198.51.100.7', '203.0.113.9', '240.0.0.1', '100.127.255.255',
        '2001:db8::1', '100::1', 'ff02::1', '::127.0.0.1', '64:ff9b:1::a00:1', 'fe80::1%eth0', 'not-an-ip', '',
      ]) {
        expect(isBlockedAddress(address), address).to.equal(true);
      }
    });

    it('allows public addresses', async () => {
      for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '100.128.0.1', '172.32.0.1']) {
        expect(isBlockedAddress(address), address).to.equal(false);
      }
      const v4 = await resolveTarget('https://8.8.8.8/hook', { allowPrivate: false, lookup: noLookup });
      expect(v4).to.deep.include({ address: '8.8.8.8', family: 4 });
      const v6 = await resolveTarget('https://[2606:4700:4700::1111]:8443/hook', { allowPrivate: false, lookup: noLookup });
      expect(v6).to.deep.include({ address: '2606:4700:4700::1111', family: 6 });
      expect(v6.url.port).to.equal('8443');
    });

    it('refuses a name that resolves to a private address', async () => {
      const err = await refusal(resolveTarget('https://localhost/hook', { allowPrivate: false }));
      expect(err.message).to.equal('host localhost resolves to a private or internal address, which is not allowed');
      expect(err.resolvedAddress).to.match(/^(127\.0\.0\.1|::1)$/);

      const lookup: GuardOptions['lookup'] = async (hostname) => {
        expect(hostname).to.equal('hooks.example.com');
        return [{ address: '10.0.0.5', family: 4 }];
      };
      const named = await refusal(resolveTarget('https://hooks.example.com/hook', { allowPrivate: false, lookup }));
      // The caller learns that it is refused, not what the name resolves to inside the network.
      expect(named.message).to.equal('host hooks.example.com resolves to a private or internal address, which is not allowed');
      expect(named.resolvedAddress).to.equal('10.0.0.5');
      const allowed = await resolveTarget('https://hooks.example.com/hook', { allowPrivate: true, lookup });
      expect(allowed).to.deep.include({ address: '10.0.0.5', family: 4 });
    });

    it('refuses a name when any one of its addresses is private', async () => {
      const mixed = [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.5', family: 4 }];
      await refusal(resolveTarget('https://hooks.example.com/', { allowPrivate: false, lookup: async () => mixed }));
      await refusal(resolveTarget('https://hooks.example.com/', { allowPrivate: false, lookup: async () => [...mixed].reverse() }));
      const public6 = [{ address: '2606:4700:4700::1111', family: 6 }, { address: '93.184.216.34', family: 4 }];
      expect(await resolveTarget('https://hooks.example.com/', { allowPrivate: false, lookup: async () => public6 }))
        .to.deep.include({ address: '2606:4700:4700::1111', family: 6 });
    });

    it('refuses a name that does not resolve', async () => {
      const failing: GuardOptions['lookup'] = async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      };
      const err = await refusal(resolveTarget('https://nowhere.example/', { allowPrivate: false, lookup: failing }));
      expect(err.message).to.equal('cannot resolve host nowhere.example: ENOTFOUND');
      await refusal(resolveTarget('https://nowhere.example/', { allowPrivate: false, lookup: async () => [] }));
    });
  });

  describe('checkTargetUrl', () => {
    it('refuses other schemes', () => {
      expect(() => checkTargetUrl('ftp://example.com/hook', { allowPrivate: true })).to.throw(TargetRefusedError, /scheme ftp/);
      expect(() => checkTargetUrl('file:///etc/passwd', { allowPrivate: true })).to.throw(TargetRefusedError);
    });

    it('refuses credentials in the URL', () => {
      expect(() => checkTargetUrl('https://user:pass@example.com/hook', { allowPrivate: false }))
        .to.throw(TargetRefusedError, /credentials/);
      expect(() => checkTargetUrl('https://user@example.com/hook', { allowPrivate: true })).to.throw(TargetRefusedError, /credentials/);
    });

    it('accepts http only when private targets are allowed', () => {
      expect(() => checkTargetUrl('http://example.com/hook', { allowPrivate: false })).to.throw(TargetRefusedError, /https/);
      expect(checkTargetUrl('http://example.com/hook', { allowPrivate: true }).href).to.equal('http://example.com/hook');
      expect(checkTargetUrl('https://example.com/hook?x=1', { allowPrivate: false }).hostname).to.equal('example.com');
    });

    it('refuses a string that is not a URL', () => {
      expect(() => checkTargetUrl('not a url at all', { allowPrivate: true })).to.throw(TargetRefusedError, 'not a valid URL');
      expect(() => checkTargetUrl('', { allowPrivate: true })).to.throw(TargetRefusedError);
    });
  });

  describe('guardedPost', () => {
    let receiver: Receiver | undefined;
    let redirectTarget: Receiver | undefined;
    let closedPort = 0;
    const allow = { allowPrivate: true, timeoutMs: 5000 };
    const base = (): string => `http://127.0.0.1:${receiver?.port}`;

    before(async () => {
      redirectTarget = await startReceiver();
      receiver = await startReceiver(() => `http://127.0.0.1:${redirectTarget?.port}/stolen`);
      const closed = await startReceiver();
      closedPort = closed.port;
      await stopReceiver(closed);
    });

    after(async () => {
      await stopReceiver(receiver);
      await stopReceiver(redirectTarget);
    });

    it('POSTs the exact body bytes with the given headers and a correct Content-Length', async () => {
      const body = '{"greeting":"héllo ✓ 🎉","n":1}';
      const headers = { 'Content-Type': 'application/json', 'User-Agent': 'cardsvc-webhooks/1', 'X-Signature': 'sha256=abc' };
      const outcome = await guardedPost(`${base()}/hook?tenant=t1`, body, headers, allow);
      expect(outcome).to.deep.include({ status: 200, responseBody: 'ok', error: null });
      expect(outcome.responseHeaders).to.include({ 'x-receiver': 'yes', 'content-type': 'text/plain' });
      expect(outcome.durationMs).to.be.a('number').and.at.least(0);

      const got = receiver?.received.at(-1);
      expect(got?.method).to.equal('POST');
      expect(got?.url).to.equal('/hook?tenant=t1');
      expect(got?.body.equals(Buffer.from(body, 'utf8'))).to.equal(true);
      expect(got?.headers).to.include({
        'content-type': 'application/json', 'user-agent': 'cardsvc-webhooks/1', 'x-signature': 'sha256=abc',
        'content-length': String(Buffer.byteLength(body, 'utf8')), host: `127.0.0.1:${receiver?.port}`,
      });
      expect(got?.headers['transfer-encoding']).to.equal(undefined);
    });

    it('returns a redirect as a status and does not follow it', async () => {
      const metadata = await guardedPost(`${base()}/metadata-redirect`, '{}', {}, allow);
      expect(metadata).to.deep.include({ status: 302, error: null });
      expect(metadata.responseHeaders.location).to.equal('http://169.254.169.254/latest/meta-data');

      const before = redirectTarget?.received.length;
      const outcome = await guardedPost(`${base()}/redirect`, '{}', {}, allow);
      expect(outcome).to.deep.include({ status: 302, error: null });
      expect(outcome.responseHeaders.location).to.equal(`http://127.0.0.1:${redirectTarget?.port}/stolen`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(redirectTarget?.received.length).to.equal(before).and.to.equal(0);
    });

    it('gives up after timeoutMs when the receiver never answers', async () => {
      const outcome = await guardedPost(`${base()}/hang`, '{}', {}, { allowPrivate: true, timeoutMs: 300 });
      expect(outcome).to.deep.include({ status: null, error: 'timeout after 300 ms' });
      expect(outcome.error).to.match(/timeout/);
      expect(outcome.durationMs).to.be.at.least(290).and.below(1000);
    });

    it('reports a closed port as a connection error', async () => {
      const outcome = await guardedPost(`http://127.0.0.1:${closedPort}/hook`, '{}', {}, allow);
      expect(outcome.status).to.equal(null);
      expect(outcome.error).to.match(/^connection error: /).and.match(/ECONNREFUSED/);
    });

    it('keeps at most maxResponseBytes of the response body', async () => {
      const outcome = await guardedPost(`${base()}/big`, '{}', {}, allow);
      expect(outcome.status).to.equal(200);
      expect(outcome.error).to.equal(null);
      expect(outcome.responseBody).to.equal('a'.repeat(8192));
      const smaller = await guardedPost(`${base()}/big`, '{}', {}, { ...allow, maxResponseBytes: 10 });
      expect(smaller.responseBody).to.equal('a'.repeat(10));
    });

    it('refuses the loopback receiver when private targets are not allowed', async () => {
      const count = receiver?.received.length;
      const outcome = await guardedPost(`${base()}/hook`, '{}', {}, { allowPrivate: false, timeoutMs: 5000 });
      expect(outcome.status).to.equal(null);
      expect(outcome.error).to.match(/^target refused: /);
      const https = await guardedPost(`https://127.0.0.1:${receiver?.port}/hook`, '{}', {}, { allowPrivate: false, timeoutMs: 5000 });
      expect(https).to.deep.include({ status: null, error: 'target refused: address 127.0.0.1 is not allowed' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(receiver?.received.length).to.equal(count);
    });

    it('connects to the checked address and keeps the URL host in the Host header', async () => {
      const lookups: string[] = [];
      const lookup: GuardOptions['lookup'] = async (hostname) => {
        lookups.push(hostname);
        return hostname === 'receiver.test' ? [{ address: '127.0.0.1', family: 4 }] : [];
      };
      const outcome = await guardedPost(`http://receiver.test:${receiver?.port}/hook`, 'named', {}, { ...allow, lookup });
      expect(outcome).to.deep.include({ status: 200, error: null });
      expect(lookups).to.deep.equal(['receiver.test']);
      const got = receiver?.received.at(-1);
      expect(got?.headers.host).to.equal(`receiver.test:${receiver?.port}`);
      expect(got?.body.toString('utf8')).to.equal('named');
    });

    it('reports a name that does not resolve as a DNS error', async () => {
      const options = { allowPrivate: false, timeoutMs: 5000, lookup: async () => [] };
      const outcome = await guardedPost('https://nowhere.example/hook', '{}', {}, options);
      expect(outcome).to.deep.include({ status: null, error: 'dns error: host nowhere.example has no addresses' });
    });

    it('counts a slow lookup against the timeout', async () => {
      const slow: GuardOptions['lookup'] = () => new Promise((resolve) => {
        setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), 1000);
      });
      const outcome = await guardedPost('http://slow.test/hook', '{}', {}, { allowPrivate: true, timeoutMs: 200, lookup: slow });
      expect(outcome).to.deep.include({ status: null, error: 'timeout after 200 ms' });
    });
  });
});
