// The ping workflow's activity: answers with the worker's identity, touching nothing else.
export function createPingActivities(deps: { workerIdentity: string }) {
  return {
    async pong(message: string): Promise<string> {
      return `pong: ${message} (from ${deps.workerIdentity})`;
    },
  };
}
