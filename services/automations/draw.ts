// Which eCard and message a card goes out with: a stable draw seeded with (automation, member, occurrence key), so
// a retried claim sends the same card and previewTrigger shows the one the claim will pick.
import { createHash } from 'node:crypto';

/** Index into a list of `n` picked by the hash of (automation, member, occurrence key); `salt` picks another draw. */
export function pickIndex(automationId: number, memberId: number, occurrenceKey: string, n: number, salt = 0): number {
  const digest = createHash('sha256').update(`${automationId}:${memberId}:${occurrenceKey}`).digest();
  return digest.readUInt32BE(salt * 4) % n;
}

/** A card's eCards to draw from: its milestone rule's own when the rule has any, else the automation's selected ones. */
export function ecardCandidates(selected: readonly number[], ruleEcards: readonly number[] | undefined): readonly number[] {
  return ruleEcards?.length ? ruleEcards : selected;
}

/** The drawn item of `items` (the usable eCards, the messages), or undefined when there is none. */
export function drawFrom<T>(items: readonly T[], automationId: number, memberId: number, occurrenceKey: string, salt = 0): T | undefined {
  return items.length ? items[pickIndex(automationId, memberId, occurrenceKey, items.length, salt)] : undefined;
}
