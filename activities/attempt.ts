// The running activity's try, as the services that treat the last one differently take it: whether this is the last
// of `attempts` (a temporary SMTP failure then fails instead of retrying), and its heartbeat.
import { Context } from '@temporalio/activity';

export function currentAttempt(attempts: number): { lastTry: boolean; heartbeat: () => void } {
  const context = Context.current();
  return { lastTry: context.info.attempt >= attempts, heartbeat: () => context.heartbeat() };
}
