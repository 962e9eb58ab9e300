// The widget's sender and recipient domain lists (`sender_email_domains_whitelist`,
// `recipient_email_domains_whitelist`): written comma- or newline-separated, stored normalized (lower case, one
// domain per line, no repeats), so the send compares an address's domain with plain strings. A domain matches
// exactly, case-insensitively (`example.com` does not admit `mail.example.com`: an owner lists each domain they
// mean); an empty list allows any domain.
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A host name of at least two labels (`example.com`, `xn--bcher-kva.example`). */
export function isDomain(text: string): boolean {
  if (text.length > 253) return false;
  const labels = text.split('.');
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels.at(-1)!);
}

/** The list as stored (null for an empty one), or the first entry that is not a domain. */
export function normalizeDomainList(text: string): { ok: true; value: string | null } | { ok: false; bad: string } {
  const domains: string[] = [];
  for (const entry of text.split(/[,\n\r]+/)) {
    const domain = entry.trim().toLowerCase();
    if (domain === '') continue;
    if (!isDomain(domain)) return { ok: false, bad: entry.trim() };
    if (!domains.includes(domain)) domains.push(domain);
  }
  return { ok: true, value: domains.length ? domains.join('\n') : null };
}

/** The stored list as domains (none: any domain is allowed); tolerant of lists stored before the save checked them. */
export function domainsOf(list: string | null | undefined): string[] {
  if (!list) return [];
  return [...new Set(list.split(/[,\r\n]+/).map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean))];
}

const domainOfAddress = (email: string) => email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase();

/** The first address outside the list, or null when every address is allowed (an empty list allows any). */
export function outsideDomains(list: string | null | undefined, emails: readonly string[]): string | null {
  const domains = domainsOf(list);
  if (domains.length === 0) return null;
  return emails.find((email) => !domains.includes(domainOfAddress(email))) ?? null;
}
