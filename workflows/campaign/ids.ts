// Campaign workflow ids, shared by the lifecycle (client side) and the workflow itself (its child's id comes from
// its input, not from workflowInfo, so a history replays under any id).
export const campaignWorkflowId = (accountId: number, campaignId: number) => `campaign/${accountId}/${campaignId}`;

export const campaignFanOutWorkflowId = (accountId: number, campaignId: number) => `${campaignWorkflowId(accountId, campaignId)}/fan-out`;
