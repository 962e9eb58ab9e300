// The sends log as CSV (lib/csv.ts: the BOM and the formula rule), one line per recipient, streamed batch by batch
// (never the whole log in memory).
import type { ServiceContext } from '../../context.ts';
import { Readable } from 'node:stream';
import { CSV_BOM, csvLine } from '../../../lib/csv.ts';
import { sendBatches, type LoggedSend, type SendFilters } from './log.ts';

export const CSV_COLUMNS = [
  'send_id', 'created_at', 'send_at', 'status', 'mode', 'origin', 'ecard_id', 'ecard_name', 'widget_id', 'widget_name',
  'sender_name', 'sender_email', 'recipient_position', 'recipient_name', 'recipient_email', 'recipient_status', 'opened_at', 'error',
] as const;


const iso = (date: Date | null | undefined) => (date ? date.toISOString() : '');

/** The lines of one send: one per recipient (a share link without a recipient still has its line). */
function linesOf({ send, ecardName, widgetName, recipients }: LoggedSend): string {
  const head = [send.send_id, iso(send.created_at), iso(send.send_at), send.status, send.mode, send.origin, send.ecard_id, ecardName, send.widget_id, widgetName, send.sender_name, send.sender_email];
  const rows = recipients.length ? recipients : [null];
  return rows.map((r) => csvLine([...head, r?.position, r?.recipient_name, r?.recipient_email, r?.status, iso(r?.opened_at), r?.error ?? send.error])).join('');
}

async function* csvChunks(batches: AsyncGenerator<LoggedSend[]>): AsyncGenerator<string> {
  yield CSV_BOM + csvLine([...CSV_COLUMNS]);
  for await (const batch of batches) yield batch.map(linesOf).join('');
}

/**
 * The export as a stream. The filters are checked (a foreign widget or eCard is a 404) before the stream exists, so
 * a refusal is still an ordinary error answer; then each batch is read as the client takes the previous one.
 */
export async function sendsCsv(ctx: Pick<ServiceContext, 'models'>, accountId: number, filters: SendFilters): Promise<Readable> {
  return Readable.from(csvChunks(await sendBatches(ctx, accountId, filters)), { objectMode: false });
}
