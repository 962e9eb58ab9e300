// Contracts of the widget endpoints.
import { z } from 'zod';
import { numericId, flag, PageMeta, pageQuery, resource, sortOrder, withAliases } from '../schema-helpers.ts';

const id = numericId();

/** A price of at most two decimals, ≥ 0. */
const price = z.number().min(0).refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-9, 'a price has at most two decimals');

export const WidgetInput = z.object({
  id: resource('widget', z.number().int().min(0)).optional().describe('0 or absent creates'),
  name: z.string().trim().min(1).max(200).optional().describe('required on create'),
  wconfig: z.record(z.string(), z.unknown()).optional().describe('display and behaviour configuration; required on create; replaced whole'),
  dir_sender_must_be_in_directory: flag.optional().describe('turning it off on an existing widget needs otp_confirmation_token'),
});

export const SaveWidgetBody = z.object({
  widget: WidgetInput,
  ecardPrices: resource('ecard', z.record(z.string().regex(/^\d+$/, 'keys are eCard ids'), price))
    .optional()
    .describe('eCard id → price; replaces the whole map; every key must be an eCard of this widget'),
  otp_confirmation_token: z.string().optional(),
});

export const Widget = z.object({
  id: z.number().int(),
  vanity_id: z.string(),
  ownerid: z.number().int(),
  name: z.string(),
  wconfig: z.record(z.string(), z.unknown()),
  dir_sender_must_be_in_directory: z.boolean(),
  is_campaign: z.boolean(),
  ecardPrices: z.record(z.string(), z.number()),
  createdat: z.string(),
  updatedat: z.string(),
});

export const WidgetIdParams = z.object({ id: resource('widget', id) });

export const SearchWidgetsQuery = pageQuery().extend({
  keyword: z.string().optional(),
  sortBy: z.enum(['createdat', 'name', 'id']).default('createdat'),
  sortOrder,
});

export const WidgetList = z.array(Widget);
export { PageMeta };

export const DeleteWidgetsBody = withAliases(
  z.object({
    widgetids: resource('widget', z.array(z.number().int().positive()).min(1)),
    otp_confirmation_token: z.string().optional(),
  }),
  { widgetids: ['widgetIds', 'widgetIDs'] },
);

export const Deleted = z.object({ deleted: z.array(z.number().int()) });

export const CopyWidgetBody = withAliases(
  z.object({
    widgetid: resource('widget', z.number().int().positive()),
    limit: z.number().int().positive().optional().describe('copy at most this many eCards, in display order (default: all)'),
  }),
  { widgetid: ['widgetId', 'widgetID'] },
);
