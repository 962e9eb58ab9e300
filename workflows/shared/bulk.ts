// What the bulk fan-outs (a campaign's, an automation firing's) and their batch activities agree on (pure): where
// the batches run and how often one is tried (the activity's last try turns temporary SMTP refusals into failures).
export const BATCH_ATTEMPTS = 5;

export interface BulkSettings {
  taskQueue: string;
  concurrency: number;
  batchSize: number;
  /** How long a batch may go unheard (a dead worker) before it is tried again. */
  heartbeatSeconds: number;
}
