// Scopes across areas (decisions.md): what one area's answers show of another area's data. Personal data of
// directory members (names, emails, the member of a member-change event) only for a key that may read the directory.
import type { Caller } from './context.ts';

/** Whether the caller's key may see members' personal data: full access, or `directory: view` or `manage`. */
export function seesDirectory({ apiKey }: Pick<Caller, 'apiKey'>): boolean {
  const level = apiKey.permissions.directory;
  return apiKey.full_access || level === 'view' || level === 'manage';
}
