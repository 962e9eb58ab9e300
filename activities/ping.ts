// The ping workflow's activity: answers with the worker's identity, touching nothing else.
export function createPingActivities(ctx: { workerIdentity: string }) {
  return {
    async pong(message: string): Promise<string> {
      return `pong: ${message} (from ${ctx.workerIdentity})`;
    },
  };
}
