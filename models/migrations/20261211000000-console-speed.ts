// Indexes for the console's operations pages at 100,000 members and sends in one account (issue 33, bench P14):
// the home's 30-day counts and next 7 days read sends by status and send time, index-only (eCard and opened time
// included); the widgets list counts this month's sends per widget; the sends log finds a send by a recipient's
// exact address; the member table's search reads each name prefix from its own index.
import type { Migration } from '../migrator.ts';

const INDEXES = [
  { table: 'sends', fields: ['account_id', 'status', 'send_at', 'ecard_id', 'opened_at'], name: 'sends_account_status_send_at' },
  { table: 'sends', fields: ['account_id', 'widget_id', 'created_at'], name: 'sends_account_widget_created' },
  { table: 'send_recipients', fields: ['recipient_email'], name: 'send_recipients_email' },
  { table: 'team_members', fields: ['account_id', 'first_name'], name: 'team_members_account_first_name' },
  { table: 'team_members', fields: ['account_id', 'last_name'], name: 'team_members_account_last_name' },
] as const;

export const up: Migration = async ({ context: { queryInterface } }) => {
  for (const index of INDEXES) await queryInterface.addIndex(index.table, [...index.fields], { name: index.name });
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  for (const index of INDEXES) await queryInterface.removeIndex(index.table, index.name);
};
