// The generator's ceiling (bench/ceiling.ts): a bare node:http server in a process of its own answering every request
// 200 "hello", so what a run of the load generator measures against it is the most the generator itself can drive on
// this machine. Its port in BENCH_HELLO_PORT.
import { createServer } from 'node:http';

const port = Number(process.env.BENCH_HELLO_PORT);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' });
  res.end('hello');
});
// As the service's server keeps connections (api/server.ts): past load balancers' idle time.
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
