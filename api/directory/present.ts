// How a member is shown: the spec's field names, `disabled` as 0/1, ISO timestamps.
import type { z } from 'zod';
import { memberState, type MemberView } from '../../services/directory/view.ts';
import type { Member, UpsertAnswer } from './schema.ts';

export function presentMember(view: MemberView & { id: number }): z.input<typeof Member>;
export function presentMember(view: MemberView): z.input<typeof UpsertAnswer>['member'];
export function presentMember(view: MemberView) {
  return {
    id: view.id,
    ...memberState(view),
    disabled: view.disabled ? 1 : 0,
    createdat: view.created_at.toISOString(),
    updatedat: view.updated_at.toISOString(),
  };
}

/** Views read from the database always have an id. */
export const saved = (view: MemberView) => presentMember(view as MemberView & { id: number });
