// The send workflow's contract (pure: the workflow, its lifecycle and the dispatch activity import it): its type
// name, its business id, its input and result, and how often the dispatch is tried.
export const SEND_ECARD_WORKFLOW = 'sendEcardWorkflow';

export const sendWorkflowId = (accountId: number, sendId: string) => `send/${accountId}/${sendId}`;

// How often the send activity is tried (the activity knows its last try: a temporary SMTP failure then fails).
export const DISPATCH_ATTEMPTS = 5;

// Runs started before the input carried `heartbeatSeconds` keep the production default.
export const DISPATCH_HEARTBEAT_SECONDS = 30;

export interface SendEcardInput {
  /** The send's row id. */
  sendPk: number;
  /** When it goes out (epoch ms); the past or now means at once. */
  sendAtMs: number;
  /** How long the dispatch may go unheard (a dead worker) before it is tried again; absent in older runs. */
  heartbeatSeconds?: number;
}

export interface SendEcardResult {
  status: string;
  emailsSent: number;
  error: string | null;
}

/** The workflow's function type: starts name it, so a start's arguments and result are checked (workflows/index.ts). */
export type SendEcardWorkflow = (input: SendEcardInput) => Promise<SendEcardResult>;
