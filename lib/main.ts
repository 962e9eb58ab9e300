// Entry-point plumbing: one handler turns any start-up failure into one line and exit code 1.
export function oneLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

/** Runs an entry point; on failure prints `<name>: <reason>` on stderr and exits 1. */
export async function runMain(name: string, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    console.error(`${name}: ${oneLine(err)}`);
    process.exit(1);
  }
}

/**
 * Calls `stop` once on the first SIGINT or SIGTERM. Later signals are ignored: npm forwards the terminal's
 * Ctrl-C that this process already got, and exiting early would orphan the dev server.
 */
export function onShutdownSignal(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`shutdown failed: ${oneLine(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
