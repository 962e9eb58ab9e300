// How often the send activity is tried (pure: shared by the workflow and the activity that knows its last try).
export const DISPATCH_ATTEMPTS = 5;
