// Compile-time only: every contract names a workflow the worker exports (workflows/index.ts), with its function type.
import type { AUTOMATION_FAN_OUT_WORKFLOW, AUTOMATION_FIRING_WORKFLOW, AutomationFanOutWorkflow, AutomationFiringWorkflow } from './automation/contract.ts';
import type { CAMPAIGN_FAN_OUT_WORKFLOW, CAMPAIGN_WORKFLOW, CampaignFanOutWorkflow, CampaignWorkflow } from './campaign/contract.ts';
import type { GIFT_EXPIRY_WORKFLOW, GiftExpiryWorkflow } from './gift-expiry/contract.ts';
import type { PING_WORKFLOW, PingWorkflow } from './ping/contract.ts';
import type { SEND_ECARD_WORKFLOW, SendEcardWorkflow } from './send-ecard/contract.ts';
import type { WEBHOOK_DELIVERY_WORKFLOW, WebhookDeliveryWorkflow } from './webhook-delivery/contract.ts';
import type * as exported from './index.ts';

// Clients start a workflow by its contract (the type name and the function type), never by importing it. These
// checks tie each contract to the worker's exports: a workflow renamed, or its signature changed, without its
// contract fails to compile here rather than failing to start at run time.
type Exported = typeof exported;
type Registered<Name extends string, Fn> = Name extends keyof Exported ? ([Exported[Name]] extends [Fn] ? ([Fn] extends [Exported[Name]] ? true : false) : false) : false;
type Holds<Check extends true> = Check;
export type ContractsRegistered = [
  Holds<Registered<typeof PING_WORKFLOW, PingWorkflow>>,
  Holds<Registered<typeof SEND_ECARD_WORKFLOW, SendEcardWorkflow>>,
  Holds<Registered<typeof WEBHOOK_DELIVERY_WORKFLOW, WebhookDeliveryWorkflow>>,
  Holds<Registered<typeof CAMPAIGN_WORKFLOW, CampaignWorkflow>>,
  Holds<Registered<typeof CAMPAIGN_FAN_OUT_WORKFLOW, CampaignFanOutWorkflow>>,
  Holds<Registered<typeof AUTOMATION_FIRING_WORKFLOW, AutomationFiringWorkflow>>,
  Holds<Registered<typeof AUTOMATION_FAN_OUT_WORKFLOW, AutomationFanOutWorkflow>>,
  Holds<Registered<typeof GIFT_EXPIRY_WORKFLOW, GiftExpiryWorkflow>>,
];
