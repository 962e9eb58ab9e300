// Every workflow the worker runs (the worker's workflowsPath): each exported under its contract's type name
// (workflows/contracts-registered.ts checks it).
export { pingWorkflow } from './ping/workflow.ts';
export { sendEcardWorkflow } from './send-ecard/workflow.ts';
export { webhookDeliveryWorkflow } from './webhook-delivery/workflow.ts';
export { campaignWorkflow } from './campaign/workflow.ts';
export { campaignFanOutWorkflow } from './campaign/fan-out.ts';
export { automationFiringWorkflow } from './automation/workflow.ts';
export { automationFanOutWorkflow } from './automation/fan-out.ts';
export { giftExpiryWorkflow } from './gift-expiry/workflow.ts';
