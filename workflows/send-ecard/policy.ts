// How often the send activity is tried (pure: shared by the workflow and the activity that knows its last try).
export const DISPATCH_ATTEMPTS = 5;

// Runs started before the input carried `heartbeatSeconds` keep the production default.
export const DISPATCH_HEARTBEAT_SECONDS = 30;
