// The load generator's ceiling, measured at the start of every run: bench/load.ts against a bare node:http "hello"
// route in its own process (bench/hello-server.ts) at the HTTP pairs' connections, after the same warm-up. An HTTP
// pair whose sides come near this figure measures the generator, not the server; it is printed beside the pairs and
// written into every result's machine notes.
import { freePort, startNodeProcess, type BenchSettings } from './harness.ts';
import { GENERATOR_MODE, getRate, type GeneratorMode } from './load.ts';

export interface GeneratorCeiling {
  /** Answers per second of the hello route. */
  helloPerSecond: number;
  connections: number;
  seconds: number;
  /** Where the generator ran: a worker thread of the harness process, or its main thread. */
  mode: GeneratorMode;
}

export async function measureGeneratorCeiling(settings: BenchSettings, logFile: string): Promise<GeneratorCeiling> {
  const port = await freePort();
  const hello = await startNodeProcess({ script: 'bench/hello-server.ts', env: { PATH: process.env.PATH, BENCH_HELLO_PORT: String(port) }, port, readyPath: '/healthz', logFile });
  try {
    if (settings.warmupSeconds > 0) await getRate(`${hello.url}/`, settings.warmupSeconds, settings.concurrency);
    const helloPerSecond = await getRate(`${hello.url}/`, settings.seconds, settings.concurrency);
    return { helloPerSecond, connections: settings.concurrency, seconds: settings.seconds, mode: GENERATOR_MODE };
  } finally {
    await hello.stop();
  }
}
