// The typed search attributes every workflow of the service sets (pure: shared by workflows and lifecycle code).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const CardAccountId = defineSearchAttributeKey('CardAccountId', SearchAttributeType.KEYWORD);
export const CardKind = defineSearchAttributeKey('CardKind', SearchAttributeType.KEYWORD);
export const CardStatus = defineSearchAttributeKey('CardStatus', SearchAttributeType.KEYWORD);
