// The ping workflow's contract (pure): operators and the test suite start it by this type name to see a worker poll.
export const PING_WORKFLOW = 'pingWorkflow';
