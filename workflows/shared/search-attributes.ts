// The typed search attributes every workflow of the service sets (pure: shared by workflows and lifecycle code),
// so operators filter the Temporal UI by account, kind and status.
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';

export const CardAccountId = defineSearchAttributeKey('CardAccountId', SearchAttributeType.KEYWORD);
export const CardKind = defineSearchAttributeKey('CardKind', SearchAttributeType.KEYWORD);
export const CardStatus = defineSearchAttributeKey('CardStatus', SearchAttributeType.KEYWORD);

export type CardKindValue = 'send' | 'webhook' | 'campaign' | 'automation';

/** The attributes a workflow starts with. */
export function cardAttributes(accountId: number, kind: CardKindValue, status: string): SearchAttributePair[] {
  return [
    { key: CardAccountId, value: String(accountId) },
    { key: CardKind, value: kind },
    { key: CardStatus, value: status },
  ];
}
