// How often a campaign batch is tried (shared by the fan-out workflow and the batch activity, whose last try
// turns temporary SMTP refusals into failures).
export const BATCH_ATTEMPTS = 5;
