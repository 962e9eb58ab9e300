// Every workflow the worker runs (the worker's workflowsPath).
export { pingWorkflow } from './ping.ts';
export { sendEcardWorkflow } from './send-ecard.ts';
export { webhookDeliveryWorkflow } from './webhook-delivery.ts';
export { campaignWorkflow } from './campaign.ts';
export { campaignFanOutWorkflow } from './campaign-fan-out.ts';
export { automationFiringWorkflow } from './automation-firing.ts';
export { automationFanOutWorkflow } from './automation-fan-out.ts';
export { giftExpiryWorkflow } from './gift-expiry.ts';
