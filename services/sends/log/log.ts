// The sends log of one account: filtered and paged for the console and the key API, read in batches for the CSV
// export, and one send with its recipients for its page. Every query is scoped by the account id.
import type { ServiceContext } from '../../context.ts';
import { Op, type Model, type ModelStatic, type WhereOptions } from 'sequelize';
import { notFound } from '../../../lib/errors.ts';
import type { Send, SendOrigin, SendStatus } from '../../../models/Send.ts';
import type { RecipientStatus, SendRecipient } from '../../../models/SendRecipient.ts';
import type { Transaction } from 'sequelize';

export const SEND_STATUSES = ['scheduled', 'pending', 'sent', 'failed', 'canceled'] as const satisfies readonly SendStatus[];
export const SEND_ORIGINS = ['single', 'campaign', 'automation', 'widget'] as const satisfies readonly SendOrigin[];

export interface SendFilters {
  status?: SendStatus | undefined;
  origin?: SendOrigin | undefined;
  widgetId?: number | undefined;
  ecardId?: number | undefined;
  /** A campaign's sends (origin `campaign`). */
  campaignId?: number | undefined;
  /** An automation's sends (origin `automation`). */
  automationId?: number | undefined;
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
  /**
   * Its recipients are directory members: an automation's card or digest (always to a member), or a campaign's
   * recipient taken from the directory (not a CSV row). Campaign and automation sends have one recipient each.
   */
  toMembers: boolean;
}

/** The filters as a where clause; a widget, eCard, campaign or automation that is not the account's is a 404, as everywhere else. */
async function whereOf(ctx: Pick<ServiceContext, 'models'>, accountId: number, filters: SendFilters): Promise<WhereOptions<Send>> {
  const { models } = ctx;
  const named: Array<[number | undefined, ModelStatic<Model>, string]> = [
    [filters.widgetId, models.Widget, 'widget'],
    [filters.ecardId, models.Ecard, 'eCard'],
    [filters.campaignId, models.Campaign, 'campaign'],
    [filters.automationId, models.Automation, 'automation'],
  ];
  for (const [id, model, kind] of named) {
    if (id !== undefined && !(await model.findOne({ where: { id, account_id: accountId }, attributes: ['id'] }))) throw notFound(`No ${kind} with id ${id}`);
  }
  const and: WhereOptions<Send>[] = [{ account_id: accountId }];
  if (filters.status) and.push({ status: filters.status });
  if (filters.origin) and.push({ origin: filters.origin });
  if (filters.widgetId !== undefined) and.push({ widget_id: filters.widgetId });
  if (filters.ecardId !== undefined) and.push({ ecard_id: filters.ecardId });
  if (filters.campaignId !== undefined) and.push({ origin: 'campaign', origin_id: filters.campaignId });
  if (filters.automationId !== undefined) and.push({ origin: 'automation', origin_id: filters.automationId });
  if (filters.dateFrom) and.push({ created_at: { [Op.gte]: filters.dateFrom } });
  if (filters.dateTo) and.push({ created_at: { [Op.lt]: filters.dateTo } });
  if (filters.recipientEmail) {
    const email = models.sequelize.escape(filters.recipientEmail.toLowerCase());
    and.push({ id: { [Op.in]: models.sequelize.literal(`(SELECT send_id FROM send_recipients WHERE recipient_email = ${email})`) } });
  }
  return { [Op.and]: and };
}

/** One recipient as the reading endpoints and the outcome events show it. */
export interface RecipientOutcome {
  name: string | null;
  email: string | null;
  status: RecipientStatus;
  sent_at: string | null;
  opened_at: string | null;
  bounced_at: string | null;
  failure: string | null;
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** A recipient's outcome; `hidden`: a directory member's name and email are null (a reader without `directory: view`). */
export function recipientOutcome(r: SendRecipient, hidden: boolean): RecipientOutcome {
  return {
    name: hidden ? null : r.recipient_name,
    email: hidden ? null : r.recipient_email,
    status: r.status,
    sent_at: r.status === 'sent' ? iso(r.finished_at) : null,
    opened_at: iso(r.opened_at),
    bounced_at: iso(r.bounced_at),
    failure: r.error ?? null,
  };
}

/**
 * Which of these sends went to directory members: an automation's (always), or a campaign's recipient taken from
 * the directory (not a CSV row). Campaign and automation sends have one recipient each.
 */
export async function memberSendIds(ctx: Pick<ServiceContext, 'models'>, sends: Send[], transaction?: Transaction): Promise<Set<number>> {
  const { models } = ctx;
  const campaignSends = sends.filter((s) => s.origin === 'campaign').map((s) => s.id);
  const fromDirectory = campaignSends.length
    ? await models.CampaignRecipient.findAll({ where: { send_id: campaignSends, source: 'directory' }, attributes: ['send_id'], raw: true, ...(transaction ? { transaction } : {}) })
    : [];
  return new Set([...sends.filter((s) => s.origin === 'automation').map((s) => s.id), ...fromDirectory.map((r) => r.send_id!)]);
}

/** Names and recipients of a batch of sends (three queries, whatever the batch's size; a fourth when it holds campaign sends). */
async function withDetails(ctx: Pick<ServiceContext, 'models'>, sends: Send[]): Promise<LoggedSend[]> {
  const { models } = ctx;
  if (sends.length === 0) return [];
  const [ecards, widgets, recipients, memberSends] = await Promise.all([
    models.Ecard.findAll({ where: { id: [...new Set(sends.map((s) => s.ecard_id))] }, attributes: ['id', 'name'] }),
    models.Widget.findAll({ where: { id: [...new Set(sends.map((s) => s.widget_id))] }, attributes: ['id', 'name'] }),
    models.SendRecipient.findAll({
      where: { send_id: sends.map((s) => s.id) },
      attributes: ['id', 'send_id', 'position', 'recipient_name', 'recipient_email', 'status', 'opened_at', 'bounced_at', 'finished_at', 'error', 'page_id'],
      order: [['send_id', 'ASC'], ['position', 'ASC']],
    }),
    memberSendIds(ctx, sends),
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
    toMembers: memberSends.has(send.id),
  }));
}

/** One page of the log, newest first, with the number of sends that match. */
export async function listSends(ctx: Pick<ServiceContext, 'models'>, accountId: number, filters: SendFilters, paging: { page: number; perPage: number }): Promise<{ rows: LoggedSend[]; count: number }> {
  const { models } = ctx;
  const where = await whereOf(ctx, accountId, filters);
  const [rows, count] = await Promise.all([
    models.Send.findAll({ where, order: [['created_at', 'DESC'], ['id', 'DESC']], limit: paging.perPage, offset: (paging.page - 1) * paging.perPage }),
    models.Send.count({ where }),
  ]);
  return { rows: await withDetails(ctx, rows), count };
}

/** Every send that matches, newest first, in batches (keyset on the id): the export never holds the whole log. */
/** The filters are checked first (a foreign widget or eCard is a 404 before anything is read). */
export async function sendBatches(ctx: Pick<ServiceContext, 'models'>, accountId: number, filters: SendFilters, batchSize = 200): Promise<AsyncGenerator<LoggedSend[]>> {
  const { models } = ctx;
  const where = await whereOf(ctx, accountId, filters);
  return (async function* batches() {
    let before: number | undefined;
    for (;;) {
      const page = await models.Send.findAll({
        where: before === undefined ? where : { [Op.and]: [where, { id: { [Op.lt]: before } }] },
        order: [['id', 'DESC']],
        limit: batchSize,
      });
      if (page.length === 0) return;
      yield await withDetails(ctx, page);
      if (page.length < batchSize) return;
      before = page[page.length - 1]!.id;
    }
  })();
}

/** One send of the account by its `send_id` (a foreign or unknown id is a 404). */
export async function findLoggedSend(ctx: Pick<ServiceContext, 'models'>, accountId: number, sendId: string): Promise<LoggedSend> {
  const { models } = ctx;
  const send = await models.Send.findOne({ where: { account_id: accountId, send_id: sendId } });
  if (!send) throw notFound(`No send with id ${sendId}`);
  return (await withDetails(ctx, [send]))[0]!;
}
