// The campaign workflows' contract (pure: the workflows, their lifecycle, the activities and services import it):
// type names, business ids, inputs and results, the wake signal. The child's id comes from the input, not from
// workflowInfo, so a history replays under any id.
import type { BulkSettings } from '../shared/bulk.ts';

export const CAMPAIGN_WORKFLOW = 'campaignWorkflow';
export const CAMPAIGN_FAN_OUT_WORKFLOW = 'campaignFanOutWorkflow';

export const campaignWorkflowId = (accountId: number, campaignId: number) => `campaign/${accountId}/${campaignId}`;

export const campaignFanOutWorkflowId = (accountId: number, campaignId: number) => `${campaignWorkflowId(accountId, campaignId)}/fan-out`;

/** A campaign in waves fans out once per wave. */
export const campaignWaveFanOutWorkflowId = (accountId: number, campaignId: number, waveId: number) => `${campaignFanOutWorkflowId(accountId, campaignId)}/wave-${waveId}`;

/** The patch that made the campaign workflow wait on the service clock and send in waves (docs/decisions.md). */
export const CAMPAIGN_WAVES_PATCH = 'campaign-waves';

/** "Look again" (a reschedule, unschedule or cancel, the test clock moved); a wake of a campaign not running starts it. */
export { wakeSignal } from '../shared/wake.ts';

/** What a campaign's batches did to its recipients (counts only: they land in the histories). */
export type BatchCounts = Record<'sent' | 'failed' | 'unknown' | 'skipped' | 'canceled', number>;

export interface CampaignWorkflowInput {
  accountId: number;
  campaignId: number;
  /** From configuration when the campaign was woken (the bulk task queue, concurrency, batch size). */
  bulk: BulkSettings;
}

export interface CampaignWorkflowResult {
  status: string;
  counts: BatchCounts | null;
}

export interface FanOutInput {
  campaignId: number;
  /** Only this wave's recipients (absent: all of them, a campaign at one instant). */
  waveId?: number;
  afterRecipientId: number;
  bulk: BulkSettings;
  /** What earlier runs (before continue-as-new) counted. */
  counts: BatchCounts | null;
}

/** The workflows' function types: starts name them, so a start's arguments and result are checked (workflows/index.ts). */
export type CampaignWorkflow = (input: CampaignWorkflowInput) => Promise<CampaignWorkflowResult>;
export type CampaignFanOutWorkflow = (input: FanOutInput) => Promise<BatchCounts>;
