// Inside a workflow: keeps its CardStatus search attribute current, so the Temporal UI shows where it stands.
import { upsertSearchAttributes } from '@temporalio/workflow';
import { CardStatus } from './search-attributes.ts';

export function showStatus(status: string): void {
  upsertSearchAttributes([{ key: CardStatus, value: status }]);
}
