// The widget's display keys of `wconfig` (docs/decisions.md, "Embeddable widget"): each optional, with its bounds
// and default; keys this project does not know are kept as the owner wrote them. `checkWconfig` is the save's
// check (400 naming the key); `displayOf` is what the gallery, the form and the widget API read.
import { z } from 'zod';
import { parseColor } from '../../../lib/colors.ts';
import { fieldIssueOf, type FieldIssue } from '../../../lib/errors.ts';
import { localeCode } from '../../i18n/locale-code.ts';

const int = (min: number, max: number) => z.number().int().min(min).max(max);
const colour = z.string().max(64).refine((value) => parseColor(value) !== null, 'not a CSS colour');
/** An origin a page may frame the widget from: scheme, host and port only. */
const origin = z.string().max(200).refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}, 'an origin is scheme://host[:port], nothing after it');

export const WCONFIG_DISPLAY = z.object({
  layout: z.enum(['grid', 'masonry', 'inline']).optional(),
  thumbColumns: int(1, 6).optional(),
  thumbHeight: int(80, 400).optional(),
  ecardsPerPage: int(4, 60).optional(),
  theme: z.enum(['light', 'dark']).optional(),
  widgetThemeColor: colour.optional(),
  locale: localeCode().optional(),
  maxRecipients: int(1, 50).optional(),
  scheduleMaxDays: int(1, 365).optional(),
  readReceiptEnabled: z.boolean().optional(),
  personalMessageOptional: z.boolean().optional(),
  disableSocialWidgetTabs: z.boolean().optional(),
  shareButtonText: z.string().max(60).optional(),
  allowedOrigins: z.array(origin).max(20).optional(),
  limitEmailsPerSession: int(1, 500).optional(),
  dailySendCap: int(1, 100_000).optional(),
});

export type WidgetDisplay = {
  layout: 'grid' | 'masonry' | 'inline';
  thumbColumns: number;
  thumbHeight: number;
  ecardsPerPage: number;
  theme: 'light' | 'dark';
  widgetThemeColor: string | null;
  locale: string;
  maxRecipients: number;
  scheduleMaxDays: number;
  readReceiptEnabled: boolean;
  personalMessageOptional: boolean;
  disableSocialWidgetTabs: boolean;
  shareButtonText: string | null;
  /** Normalized (no trailing slash); empty = any origin may frame the widget. */
  allowedOrigins: string[];
  limitEmailsPerSession: number;
  dailySendCap: number;
};

export const DISPLAY_DEFAULTS: WidgetDisplay = {
  layout: 'grid',
  thumbColumns: 3,
  thumbHeight: 180,
  ecardsPerPage: 12,
  theme: 'light',
  widgetThemeColor: null,
  locale: 'en',
  maxRecipients: 10,
  scheduleMaxDays: 60,
  readReceiptEnabled: false,
  personalMessageOptional: false,
  disableSocialWidgetTabs: false,
  shareButtonText: null,
  allowedOrigins: [],
  limitEmailsPerSession: 20,
  dailySendCap: 200,
};

/** The save's check: the display keys within their bounds (the first problem, naming its key), others untouched. */
export function checkWconfig(wconfig: Record<string, unknown>): { ok: true } | { ok: false; message: string; issue: FieldIssue } {
  const known = Object.fromEntries(Object.entries(wconfig).filter(([key]) => key in WCONFIG_DISPLAY.shape));
  const result = WCONFIG_DISPLAY.safeParse(known);
  if (result.success) return { ok: true };
  const issue = result.error.issues[0]!;
  return { ok: false, message: `wconfig.${issue.path.join('.')}: ${issue.message}`, issue: fieldIssueOf(issue, false, ['wconfig']) };
}

/**
 * The display settings as the widget reads them: each key's stored value when it is valid, else its default (a
 * widget saved before these keys were checked still renders).
 */
export function displayOf(wconfig: Record<string, unknown>): WidgetDisplay {
  const display: Record<string, unknown> = { ...DISPLAY_DEFAULTS };
  for (const [key, schema] of Object.entries(WCONFIG_DISPLAY.shape)) {
    if (!(key in wconfig)) continue;
    const parsed = (schema as z.ZodType).safeParse(wconfig[key]);
    if (parsed.success && parsed.data !== undefined) display[key] = parsed.data;
  }
  display.allowedOrigins = (display.allowedOrigins as string[]).map((o) => o.replace(/\/$/, ''));
  return display as WidgetDisplay;
}
