// Webhook signing secrets are sealed at rest (services/webhooks/secrets.ts): a sealed secret is longer than the
// 100 characters the columns held. The sealing itself happens when the API or a worker starts, not here: the
// migrate job holds no key. SQLite does not enforce VARCHAR lengths, so only MySQL changes.
import { DataTypes, QueryTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

const widths = async (queryInterface: Parameters<Migration>[0]['context']['queryInterface'], length: number) => {
  await queryInterface.changeColumn('webhook_secrets', 'secret', { type: DataTypes.STRING(length).BINARY, allowNull: false });
  await queryInterface.changeColumn('webhook_secrets', 'previous_secret', { type: DataTypes.STRING(length).BINARY, allowNull: true });
};

export const up: Migration = async ({ context: { queryInterface, sequelize } }) => {
  if (sequelize.getDialect() === 'mysql') await widths(queryInterface, 255);
};

// Code from before this migration cannot read a sealed secret: going back with sealed rows is refused.
export const down: Migration = async ({ context: { queryInterface, sequelize } }) => {
  const sealed = await sequelize.query<{ n: number }>(
    "SELECT COUNT(*) AS n FROM webhook_secrets WHERE secret LIKE 'enc1:%' OR previous_secret LIKE 'enc1:%'",
    { type: QueryTypes.SELECT, plain: true },
  );
  if (Number(sealed?.n ?? 0) > 0) {
    throw new Error(`${sealed!.n} webhook signing secret(s) are sealed; earlier versions cannot read them: rotate or restore them before migrating down`);
  }
  if (sequelize.getDialect() === 'mysql') await widths(queryInterface, 100);
};
