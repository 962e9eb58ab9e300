// The daily gift expiry's contract (pure: the workflow and its lifecycle import it): the workflow type its
// Schedule starts, the Schedule's id (one for the whole service), and the result.
export const GIFT_EXPIRY_WORKFLOW = 'giftExpiryWorkflow';

export const GIFT_EXPIRY_SCHEDULE_ID = 'gift-expiry';

export interface GiftExpiryResult {
  /** Orders this run moved to `expired`. */
  expired: number;
}

/** The workflow's function type: the Schedule's action names it (workflows/index.ts). */
export type GiftExpiryWorkflow = () => Promise<GiftExpiryResult>;
