// How a member is shown: the spec's field names, `disabled` as 0/1, ISO timestamps.
import type { z } from 'zod';
import type { MemberView } from '../../services/directory/view.ts';
import type { Member, UpsertAnswer } from './schema.ts';

export function presentMember(view: MemberView & { id: number }): z.input<typeof Member>;
export function presentMember(view: MemberView): z.input<typeof UpsertAnswer>['member'];
export function presentMember(view: MemberView) {
  return {
    id: view.id,
    email: view.email,
    employee_id: view.employee_id,
    first_name: view.first_name,
    last_name: view.last_name,
    job_position: view.job_position,
    departments: view.departments,
    date_of_birth: view.date_of_birth,
    hire_date: view.hire_date,
    profile_image_url: view.profile_image_url,
    manager_email: view.manager_email,
    custom_fields: view.custom_fields,
    disabled: view.disabled ? 1 : 0,
    createdat: view.created_at.toISOString(),
    updatedat: view.updated_at.toISOString(),
  };
}

/** Views read from the database always have an id. */
export const saved = (view: MemberView) => presentMember(view as MemberView & { id: number });
