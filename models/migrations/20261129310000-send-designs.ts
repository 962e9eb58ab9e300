// Send designs stored once per distinct content: send_designs keyed by the SHA-256 of the design's JSON text, and
// send_design_refs giving each send its design. Existing snapshots move over in batches of 500 (each batch's rows
// leave send_snapshots once their references are written); `down` moves them back the same way.
import { createHash } from 'node:crypto';
import { DataTypes, QueryTypes, type QueryOptions } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { idColumn, mediumText, tableOptions } from '../columns.ts';

const BATCH = 500;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
// INSERT IGNORE (MySQL) / INSERT OR IGNORE (SQLite): a design another batch already stored. Typed for bulkCreate only.
const ignoreDuplicates = { ignoreDuplicates: true } as QueryOptions;

export const up: Migration = async ({ context: { queryInterface, sequelize } }) => {
  await queryInterface.createTable(
    'send_designs',
    {
      id: idColumn(),
      sha256: { type: DataTypes.CHAR(64).BINARY, allowNull: false },
      design: { type: mediumText(queryInterface), allowNull: false },
    },
    tableOptions,
  );
  await queryInterface.addIndex('send_designs', ['sha256'], { unique: true, name: 'send_designs_sha256' });
  await queryInterface.createTable(
    'send_design_refs',
    {
      send_id: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false, references: { model: 'sends', key: 'id' }, onDelete: 'CASCADE' },
      design_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'send_designs', key: 'id' } },
    },
    tableOptions,
  );
  await queryInterface.addIndex('send_design_refs', ['design_id'], { name: 'send_design_refs_design' });

  for (;;) {
    const rows = await sequelize.query<{ send_id: number; design: string }>(`SELECT send_id, design FROM send_snapshots ORDER BY send_id LIMIT ${BATCH}`, { type: QueryTypes.SELECT });
    if (rows.length === 0) break;
    const hashes = rows.map((r) => sha256(r.design));
    const distinct = new Map(hashes.map((hash, i) => [hash, rows[i]!.design]));
    await queryInterface.bulkInsert('send_designs', [...distinct].map(([hash, design]) => ({ sha256: hash, design })), ignoreDuplicates);
    const ids = new Map(
      (await sequelize.query<{ id: number; sha256: string }>('SELECT id, sha256 FROM send_designs WHERE sha256 IN (:hashes)', { type: QueryTypes.SELECT, replacements: { hashes: [...distinct.keys()] } }))
        .map((d) => [String(d.sha256), d.id]),
    );
    await queryInterface.bulkInsert('send_design_refs', rows.map((r, i) => ({ send_id: r.send_id, design_id: ids.get(hashes[i]!)! })));
    await sequelize.query('DELETE FROM send_snapshots WHERE send_id IN (:sendIds)', { replacements: { sendIds: rows.map((r) => r.send_id) } });
  }
};

export const down: Migration = async ({ context: { queryInterface, sequelize } }) => {
  for (let after = 0; ; ) {
    const rows = await sequelize.query<{ send_id: number; design: string }>(
      `SELECT r.send_id, d.design FROM send_design_refs r JOIN send_designs d ON d.id = r.design_id WHERE r.send_id > :after ORDER BY r.send_id LIMIT ${BATCH}`,
      { type: QueryTypes.SELECT, replacements: { after } },
    );
    if (rows.length === 0) break;
    await queryInterface.bulkInsert('send_snapshots', rows.map((r) => ({ send_id: r.send_id, design: r.design })));
    after = rows[rows.length - 1]!.send_id;
  }
  await queryInterface.dropTable('send_design_refs');
  await queryInterface.dropTable('send_designs');
};
