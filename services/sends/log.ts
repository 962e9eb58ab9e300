// The sends log of one account: filtered and paged for the console, read in batches for the CSV export, and one
// send with its recipients for its page. Every query is scoped by the account id.
import { Op, type WhereOptions } from 'sequelize';
import { notFound } from '../../lib/errors.ts';
import type { Models } from '../../models/index.ts';
import type { Send, SendOrigin, SendStatus } from '../../models/Send.ts';
import type { SendRecipient } from '../../models/SendRecipient.ts';

export const SEND_STATUSES: readonly SendStatus[] = ['scheduled', 'pending', 'sent', 'failed', 'canceled'];
export const SEND_ORIGINS: readonly SendOrigin[] = ['single', 'campaign', 'automation', 'widget'];

export interface SendFilters {
  status?: SendStatus | undefined;
  origin?: SendOrigin | undefined;
  widgetId?: number | undefined;
  ecardId?: number | undefined;
  /** Sends made at or after this instant. */
  dateFrom?: Date | undefined;
  /** Sends made before this instant. */
  dateTo?: Date | undefined;
  /** A recipient's address, compared exactly (addresses are stored lower-cased). */
  recipientEmail?: string | undefined;
}

/** A send as the log shows it: its eCard's and widget's names, its recipients (in order). */
export interface LoggedSend {
  send: Send;
  ecardName: string;
  widgetName: string;
  recipients: SendRecipient[];
}

/** The filters as a where clause; a widget or eCard that is not the account's is a 404, as everywhere else. */
async function whereOf(models: Models, accountId: number, filters: SendFilters): Promise<WhereOptions<Send>> {
  if (filters.widgetId !== undefined && !(await models.Widget.findOne({ where: { id: filters.widgetId, account_id: accountId }, attributes: ['id'] }))) {
    throw notFound(`No widget with id ${filters.widgetId}`);
  }
  if (filters.ecardId !== undefined && !(await models.Ecard.findOne({ where: { id: filters.ecardId, account_id: accountId }, attributes: ['id'] }))) {
    throw notFound(`No eCard with id ${filters.ecardId}`);
  }
  const and: WhereOptions<Send>[] = [{ account_id: accountId }];
  if (filters.status) and.push({ status: filters.status });
  if (filters.origin) and.push({ origin: filters.origin });
  if (filters.widgetId !== undefined) and.push({ widget_id: filters.widgetId });
  if (filters.ecardId !== undefined) and.push({ ecard_id: filters.ecardId });
  if (filters.dateFrom) and.push({ created_at: { [Op.gte]: filters.dateFrom } });
  if (filters.dateTo) and.push({ created_at: { [Op.lt]: filters.dateTo } });
  if (filters.recipientEmail) {
    const email = models.sequelize.escape(filters.recipientEmail.toLowerCase());
    and.push({ id: { [Op.in]: models.sequelize.literal(`(SELECT send_id FROM send_recipients WHERE recipient_email = ${email})`) } });
  }
  return { [Op.and]: and };
}

/** Names and recipients of a batch of sends (three queries, whatever the batch's size). */
async function withDetails(models: Models, sends: Send[]): Promise<LoggedSend[]> {
  if (sends.length === 0) return [];
  const [ecards, widgets, recipients] = await Promise.all([
    models.Ecard.findAll({ where: { id: [...new Set(sends.map((s) => s.ecard_id))] }, attributes: ['id', 'name'] }),
    models.Widget.findAll({ where: { id: [...new Set(sends.map((s) => s.widget_id))] }, attributes: ['id', 'name'] }),
    models.SendRecipient.findAll({
      where: { send_id: sends.map((s) => s.id) },
      attributes: ['id', 'send_id', 'position', 'recipient_name', 'recipient_email', 'status', 'opened_at', 'finished_at', 'error', 'page_id'],
      order: [['send_id', 'ASC'], ['position', 'ASC']],
    }),
  ]);
  const ecardName = new Map(ecards.map((e) => [e.id, e.name]));
  const widgetName = new Map(widgets.map((w) => [w.id, w.name]));
  const bySend = new Map<number, SendRecipient[]>();
  for (const r of recipients) bySend.set(r.send_id, [...(bySend.get(r.send_id) ?? []), r]);
  return sends.map((send) => ({
    send,
    // An eCard or widget deleted since keeps its sends in the log, under its id.
    ecardName: ecardName.get(send.ecard_id) ?? `eCard ${send.ecard_id} (deleted)`,
    widgetName: widgetName.get(send.widget_id) ?? `Widget ${send.widget_id} (deleted)`,
    recipients: bySend.get(send.id) ?? [],
  }));
}

/** One page of the log, newest first, with the number of sends that match. */
export async function listSends(models: Models, accountId: number, filters: SendFilters, paging: { page: number; perPage: number }): Promise<{ rows: LoggedSend[]; count: number }> {
  const where = await whereOf(models, accountId, filters);
  const [rows, count] = await Promise.all([
    models.Send.findAll({ where, order: [['created_at', 'DESC'], ['id', 'DESC']], limit: paging.perPage, offset: (paging.page - 1) * paging.perPage }),
    models.Send.count({ where }),
  ]);
  return { rows: await withDetails(models, rows), count };
}

/** Every send that matches, newest first, in batches (keyset on the id): the export never holds the whole log. */
/** The filters are checked first (a foreign widget or eCard is a 404 before anything is read). */
export async function sendBatches(models: Models, accountId: number, filters: SendFilters, batchSize = 200): Promise<AsyncGenerator<LoggedSend[]>> {
  const where = await whereOf(models, accountId, filters);
  return (async function* batches() {
    let before: number | undefined;
    for (;;) {
      const page = await models.Send.findAll({
        where: before === undefined ? where : { [Op.and]: [where, { id: { [Op.lt]: before } }] },
        order: [['id', 'DESC']],
        limit: batchSize,
      });
      if (page.length === 0) return;
      yield await withDetails(models, page);
      if (page.length < batchSize) return;
      before = page[page.length - 1]!.id;
    }
  })();
}

/** One send of the account by its `send_id` (a foreign or unknown id is a 404). */
export async function findLoggedSend(models: Models, accountId: number, sendId: string): Promise<LoggedSend> {
  const send = await models.Send.findOne({ where: { account_id: accountId, send_id: sendId } });
  if (!send) throw notFound(`No send with id ${sendId}`);
  return (await withDetails(models, [send]))[0]!;
}
