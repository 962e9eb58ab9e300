// The five fixed roles of a console member: each a permission map over the key areas plus `team` and `audit`, read
// like a key's scopes, and what a console route may need of one (its declared `role`).
import { AREAS, type Area, type Level } from '../../models/ApiKey.ts';
import { ROLES, type Role } from '../../models/Membership.ts';

export { ROLES, type Role };

/** The areas a role is read over: the key areas, `team` (people) and `audit` (the log) among them. */
export const ROLE_AREAS = AREAS;
export type RoleArea = Area;
export type RolePermissions = Record<RoleArea, Level>;

/**
 * What a console route needs: a level of an area (a page shows it: GET view, an unsafe route manage), any member
 * (their own profile, mode, step-up, sign-out), an admin (keys, people) or the owner (the owner-only actions).
 */
export type RoleNeed = { area: RoleArea; level: 'view' | 'manage' } | 'member' | 'admin' | 'owner';

const every = (level: Level, except: readonly RoleArea[] = []): RolePermissions =>
  Object.fromEntries(ROLE_AREAS.map((area) => [area, except.includes(area) ? 'none' : level])) as RolePermissions;

const only = (grants: Partial<RolePermissions>): RolePermissions => ({ ...every('none'), ...grants });

/** decisions.md "Teams": unlisted areas are `none`; `audit` has no `manage`. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, RolePermissions>> = {
  owner: { ...every('manage'), audit: 'view' },
  admin: { ...every('manage'), audit: 'view' },
  designer: only({ ecards: 'manage', widgets: 'manage', brands: 'manage', media: 'manage', campaigns: 'view', automations: 'view', sends: 'view', analytics: 'view' }),
  sender: only({
    sends: 'manage', campaigns: 'manage', automations: 'manage',
    ecards: 'view', widgets: 'view', brands: 'view', media: 'view', directory: 'view', gift_cards: 'view', analytics: 'view',
  }),
  // Every area but webhooks and settings; no people, no audit log.
  viewer: every('view', ['webhooks', 'settings', 'team', 'audit']),
};

export function levelAllows(level: Level, needed: 'view' | 'manage'): boolean {
  return level === 'manage' || (level === 'view' && needed === 'view');
}

export function roleAllows(role: Role, need: RoleNeed): boolean {
  if (need === 'member') return true;
  if (need === 'owner') return role === 'owner';
  if (need === 'admin') return role === 'owner' || role === 'admin';
  return levelAllows(ROLE_PERMISSIONS[role][need.area], need.level);
}

/** How a need reads in a refusal: `sends: manage`, `admin`. */
export const needLabel = (need: RoleNeed): string => (typeof need === 'string' ? need : `${need.area}: ${need.level}`);
