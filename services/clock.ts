// The service's clock. In production it is the system's. With TEST_CLOCK (tests only) it runs ahead by an offset
// kept in the database (service_clock): a test moves it forward for every process at once, then signals `wake`, so
// a wait of hours (a zone's 9:00, the end of quiet hours) passes on real Temporal timers of whole seconds.
import { QueryTypes, type Sequelize } from 'sequelize';

export interface ServiceClock {
  /** Now, with the offset last read (synchronous: validation and rendering use it). */
  now: () => Date;
  /** Now, with the offset read again from the database: what an activity computing a wait uses. */
  read: () => Promise<Date>;
}

/** The system's clock, or a test's fixed one. */
export function systemClock(base: () => Date = () => new Date()): ServiceClock {
  return { now: base, read: async () => base() };
}

/** The test clock: `base` plus the stored offset. */
export function offsetClock(sequelize: Sequelize, base: () => Date = () => new Date()): ServiceClock {
  let offsetMs = 0;
  const now = () => new Date(base().getTime() + offsetMs);
  return {
    now,
    async read() {
      const rows = await sequelize.query<{ offset_ms: number | string }>('SELECT offset_ms FROM service_clock WHERE id = 1', { type: QueryTypes.SELECT });
      offsetMs = Number(rows[0]?.offset_ms ?? 0);
      return now();
    },
  };
}

/** Tests only: moves the stored offset forward by `ms` (processes see it at their next `read`); one writer, a test. */
export async function advanceTestClock(sequelize: Sequelize, ms: number): Promise<void> {
  await sequelize.transaction(async (transaction) => {
    const rows = await sequelize.query<{ offset_ms: number | string }>('SELECT offset_ms FROM service_clock WHERE id = 1', { type: QueryTypes.SELECT, transaction });
    const offsetMs = Number(rows[0]?.offset_ms ?? 0) + Math.round(ms);
    await sequelize.query('DELETE FROM service_clock WHERE id = 1', { transaction });
    await sequelize.query('INSERT INTO service_clock (id, offset_ms) VALUES (1, :offsetMs)', { replacements: { offsetMs }, transaction });
  });
}

/** Tests only: back to no offset. */
export async function resetTestClock(sequelize: Sequelize): Promise<void> {
  await sequelize.query('DELETE FROM service_clock WHERE id = 1');
}
