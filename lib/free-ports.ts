// Free TCP ports for servers whose port is chosen before they start (the Temporal server's, the test suite's and the
// drills' children). Picked at random below the OS's ephemeral range (32768 and up on Linux), never from it: a port
// the OS hands out with `listen(0)` is one it may give the next outgoing connection of any process while the server
// that was to have it is still starting (an `npm start` test met EADDRINUSE that way on a busy CI machine), and
// Temporal keeps its members' ports in a `smallint` column, so its ports must stay below 32768 anyway.
import { createServer } from 'node:net';

const LOW = 20_000;
const HIGH = 32_767;
/** Ports this process has handed out: never twice, even when two callers ask at the same moment. */
const handedOut = new Set<number>();

/** Whether nothing listens on `port` on any address now (listened on once, then closed). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** A port free now, below the ephemeral range, not handed out before by this process. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await portFree(port)) return port;
  }
}

/** `n` such ports. */
export async function freePorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < n) ports.push(await freePort());
  return ports;
}
