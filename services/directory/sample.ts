// One representative member-change event per type, made of invented data (never a real member's).
import { memberEventBody, type MemberEvent, type MemberEventType } from './events.ts';

const SAMPLE_MEMBER = {
  id: 1001,
  email: 'jane.doe@example.com',
  employee_id: 'E-1001',
  first_name: 'Jane',
  last_name: 'Doe',
  job_position: 'Product Designer',
  departments: ['Design'],
  date_of_birth: '1800-04-12',
  hire_date: '2021-09-01',
  profile_image_url: 'https://example.com/avatars/jane.png',
  timezone: 'America/Chicago',
  disabled: 0 as const,
};

export function sampleMemberEvent(type: MemberEventType, now: Date): MemberEvent {
  const updatedat = now.toISOString();
  const member =
    type === 'team_member_deleted'
      ? { id: SAMPLE_MEMBER.id, email: SAMPLE_MEMBER.email, employee_id: SAMPLE_MEMBER.employee_id }
      : { ...SAMPLE_MEMBER, disabled: type === 'team_member_deactivated' ? (1 as const) : (0 as const), updatedat };
  return memberEventBody({
    eventId: crypto.randomUUID(),
    type,
    at: now,
    source: 'api',
    member,
    changedFields: ['job_position', 'departments'],
  });
}
