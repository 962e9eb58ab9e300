// The ping workflow's contract (pure): operators and the test suite start it by this type name to see a worker poll.
export const PING_WORKFLOW = 'pingWorkflow';

/** The workflow's function type: starts name it (workflows/index.ts); it answers with its message. */
export type PingWorkflow = (message: string) => Promise<string>;
