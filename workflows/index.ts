// Every workflow the worker runs (the worker's workflowsPath).
export { pingWorkflow } from './ping.ts';
export { webhookDeliveryWorkflow } from './webhook-delivery.ts';
