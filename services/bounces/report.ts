// What a message to the bounce listener reports, parsed with mailparser: a delivery status notification (RFC 3464,
// message/delivery-status) or a complaint (ARF, RFC 5965, message/feedback-report). Only the parsed status is kept
// (kind, enhanced status code, a short diagnostic with addresses taken out), never the report itself. Anything
// else (a success DSN, an auto-reply, garbage) is null: the listener takes it and records nothing.
import { simpleParser, type Attachment } from 'mailparser';
import type { BounceKind } from '../../models/SendRecipient.ts';

export interface BounceReport {
  kind: BounceKind;
  /** The enhanced status code (`5.1.1`) of a DSN; null for a complaint. */
  status: string | null;
  /** A DSN's Diagnostic-Code (else its Status line), a complaint's Feedback-Type; at most DIAGNOSTIC_LENGTH characters. */
  diagnostic: string | null;
  /** The Message-ID of the message reported on (from its attached message or headers), when the report carries it. */
  originalMessageId: string | null;
}

export const DIAGNOSTIC_LENGTH = 200;

const DELIVERY_STATUS = new Set(['message/delivery-status', 'message/global-delivery-status']);
const FEEDBACK_REPORT = 'message/feedback-report';
const ORIGINAL = new Set(['message/rfc822', 'text/rfc822-headers', 'message/global', 'message/global-headers']);
// ARF feedback types that are a person's complaint (not-spam and auth-failure reports are not).
const COMPLAINT_TYPES = new Set(['abuse', 'fraud', 'virus', 'other']);
// Only the first part of a big attachment is read: report fields and headers come first.
const READ_BYTES = 64 * 1024;

/** `Name: value` fields of a header block, continuation lines unfolded; names lower-cased; groups split on blank lines. */
function fieldGroups(text: string): Array<Map<string, string>> {
  const groups: Array<Map<string, string>> = [];
  for (const block of text.replace(/\r\n/g, '\n').split(/\n[ \t]*\n/)) {
    const fields = new Map<string, string>();
    for (const line of block.replace(/\n[ \t]+/g, ' ').split('\n')) {
      const at = line.indexOf(':');
      if (at > 0) {
        const name = line.slice(0, at).trim().toLowerCase();
        if (!fields.has(name)) fields.set(name, line.slice(at + 1).trim());
      }
    }
    if (fields.size) groups.push(fields);
  }
  return groups;
}

/** Printable, addresses replaced (a diagnostic often quotes the recipient's), shortened. */
function shortText(value: string | undefined): string | null {
  if (!value) return null;
  const clean = value
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/<?[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+>?/g, '<address>')
    .replace(/\s+/g, ' ')
    .trim();
  return clean ? clean.slice(0, DIAGNOSTIC_LENGTH) : null;
}

const head = (a: Attachment) => a.content.subarray(0, READ_BYTES).toString('utf8');

function originalMessageIdOf(attachments: Attachment[]): string | null {
  const original = attachments.find((a) => ORIGINAL.has(a.contentType.toLowerCase()));
  if (!original) return null;
  // The header section of the attached message (or the headers alone).
  const headers = fieldGroups(head(original).split(/\r?\n\r?\n/)[0] ?? '')[0];
  const id = /<[^<>\s]+>/.exec(headers?.get('message-id') ?? '')?.[0];
  return id ?? null;
}

function deliveryStatusOf(part: Attachment): Pick<BounceReport, 'kind' | 'status' | 'diagnostic'> | null {
  // The first group holds per-message fields; each further group is one recipient's.
  for (const fields of fieldGroups(head(part)).slice(1)) {
    const action = (fields.get('action') ?? '').toLowerCase().split(/[\s(;]/)[0];
    if (action !== 'failed' && action !== 'delayed') continue;
    const status = /^([245])\.\d{1,3}\.\d{1,3}/.exec(fields.get('status') ?? '');
    if (!status || status[1] === '2') continue;
    return { kind: status[1] === '5' ? 'hard' : 'soft', status: status[0], diagnostic: shortText(fields.get('diagnostic-code') ?? fields.get('status')) };
  }
  return null;
}

function complaintOf(part: Attachment): Pick<BounceReport, 'kind' | 'status' | 'diagnostic'> | null {
  const type = (fieldGroups(head(part))[0]?.get('feedback-type') ?? '').toLowerCase();
  return COMPLAINT_TYPES.has(type) ? { kind: 'complaint', status: null, diagnostic: shortText(type) } : null;
}

/** The report a message carries, or null when it carries none this service acts on; throws only on unparseable MIME. */
export async function parseBounceReport(raw: Buffer): Promise<BounceReport | null> {
  const mail = await simpleParser(raw, {
    // Report parts as attachments (not folded into the text), embedded messages kept raw, no HTML work.
    keepDeliveryStatus: true,
    ignoreEmbedded: true,
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    checksumAlgo: false,
    maxChildNodes: 50,
    maxHeadSize: 64 * 1024,
  });
  const attachments = mail.attachments;
  const status = attachments.find((a) => DELIVERY_STATUS.has(a.contentType.toLowerCase()));
  const feedback = attachments.find((a) => a.contentType.toLowerCase() === FEEDBACK_REPORT);
  const found = feedback ? complaintOf(feedback) : status ? deliveryStatusOf(status) : null;
  return found && { ...found, originalMessageId: originalMessageIdOf(attachments) };
}
