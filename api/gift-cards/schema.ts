// Contracts of the reward (gift-card) endpoints: settings, products, orders, spend rules, inventory and analytics.
// Amounts are in currency units (25, 10.5); codes and claim links only ever appear masked.
import { z } from 'zod';
import { accountFromKey as accountFromKeyError } from '../../lib/errors.ts';
import { CLAIM_STATUSES, FULFILLMENT_STATUSES, GIFT_SCOPES, PAYMENT_STATUSES, SPEND_PERIODS } from '../../models/Gift.ts';
import { numericId, PageMeta, pageQuery, resource, withAliases, named } from '../schema-helpers.ts';
import type { OrderQuery } from '../../services/rewards/orders-list.ts';

const id = numericId();
const amount = z.number();
const isoDate = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 date-time' }).transform((s) => new Date(s));

// ISO 3166-1 alpha-2, the 249 assigned codes (not the reserved or withdrawn ones such as UK, EU or YU).
const ISO_COUNTRIES = new Set(
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD
CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF
GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
VN VU WF WS YE YT ZA ZM ZW`.split(/\s+/),
);

export const ListProductsQuery = z.object({
  country: z
    .string()
    .trim()
    .transform((c) => c.toUpperCase())
    .refine((c) => ISO_COUNTRIES.has(c), 'expected an ISO 3166-1 alpha-2 country code such as US or GB')
    .optional()
    .describe('ISO 3166-1 alpha-2 (any case): only provider products sold there; manual products are not filtered'),
});

// The account comes from the key: a query naming one is refused (decisions.md: the one unknown field that is not
// ignored), before and whatever any other field says, so these throw while parsing instead of adding an issue.
const accountFromKey = (name: string) =>
  z
    .unknown()
    .transform((value) => {
      // The OpenAPI generator probes schemas with null; a query never holds null.
      if (value === null) return undefined;
      throw accountFromKeyError(`${name} must not be passed: the account is the API key's`);
    })
    .optional()
    .describe('must not be passed: the account comes from the key (400 account_from_key)');

export const ListOrdersQuery = withAliases(
  z.object({
    ownerid: accountFromKey('ownerid'),
    user_id: accountFromKey('user_id'),
    ...pageQuery().shape,
    payment_status: z.enum(PAYMENT_STATUSES).optional().describe('absent: every status'),
    fulfillment_status: z.enum(FULFILLMENT_STATUSES).optional().describe('absent: every status'),
    claim_status: z.enum(CLAIM_STATUSES).optional().describe('absent: every status'),
    scope: z.enum(GIFT_SCOPES).optional().describe('where the gift was sent from; absent: every scope'),
    campaign_id: resource('campaign', id).optional().describe('an unknown campaign or another account’s is 404'),
    automation_id: resource('automation', id).optional().describe('an unknown automation or another account’s is 404'),
    dateFrom: isoDate.optional().describe('createdat at or after this ISO 8601 date-time (with an offset, e.g. Z)'),
    dateTo: isoDate.optional().describe('createdat at or before this ISO 8601 date-time'),
  }),
  {
    campaign_id: ['campaignId', 'campaignID', 'campaignid'],
    automation_id: ['automationId', 'automationID', 'automationid'],
    ownerid: ['ownerId', 'ownerID', 'OwnerId', 'owner_id'],
    user_id: ['userId', 'userid', 'userID', 'UserId', 'user_ID'],
  },
);

/** The orders' filters as the orders service takes them (the key API, the console API and the console's page). */
export function orderQueryOf(query: z.output<typeof ListOrdersQuery>): OrderQuery {
  return {
    page: query.page,
    perPage: query.perPage,
    paymentStatus: query.payment_status,
    fulfillmentStatus: query.fulfillment_status,
    claimStatus: query.claim_status,
    scope: query.scope,
    campaignId: query.campaign_id,
    automationId: query.automation_id,
    dateFrom: query.dateFrom,
    dateTo: query.dateTo,
  };
}

// Answers.

export const GiftSettings = z.object({
  provider_mode: z.enum(['manual', 'provider']).describe('manual: codes uploaded into inventory; provider: a catalog behind an adapter'),
  provider: z.string().nullable().describe('the provider in use in provider mode (the sandbox: simulated); null in manual mode or when none is configured'),
  currency: z.string().describe('ISO 4217; one per account'),
  min_amount: amount.describe('smallest face value of one card'),
  max_amount: amount.describe('largest face value of one card'),
  velocity_limits_enabled: z.boolean().describe('false: spend is recorded against the rules and nothing is refused'),
  claim_expiry_days: z.number().int().describe('unclaimed orders expire after this many days'),
});

export const Product = named('GiftCardProduct', z.object({
  product_id: z.string().describe('what a gift names: manual:<brand>:<denomination> or <provider>:<sku>'),
  brand: z.string(),
  name: z.string(),
  denomination: amount.nullable().describe('a manual product’s face value; null for a product with a range of amounts'),
  min_amount: amount,
  max_amount: amount,
  currency: z.string(),
  countries: z.array(z.string()).describe('ISO 3166-1 alpha-2 where a provider product is sold; [] for manual products'),
  available: z.number().int().nullable().describe('codes left (manual); null where stock is not counted (provider, the sandbox)'),
}));
export const ProductList = z.array(Product);

export const Order = named('GiftCardOrder', z.object({
  id: z.number().int(),
  scope: z.enum(GIFT_SCOPES),
  campaign_id: z.number().int().nullable(),
  automation_id: z.number().int().nullable(),
  send_id: z.string().nullable().describe('the public id of the send that carried the gift'),
  recipient_name: z.string().nullable().describe('null once the member was erased'),
  recipient_email: z.string().nullable(),
  product_id: z.string(),
  brand: z.string(),
  amount: amount.describe('face value'),
  currency: z.string(),
  payment_status: z.enum(PAYMENT_STATUSES),
  fulfillment_status: z.enum(FULFILLMENT_STATUSES),
  claim_status: z.enum(CLAIM_STATUSES),
  code_masked: z.string().nullable().describe('**** and the last 4 (**** alone for a code under 12 characters); null when no code was handed out'),
  claim_url_masked: z.string().nullable().describe('**** and the last 4 of the claim link; null when no link was issued'),
  createdat: z.string(),
  fulfilledat: z.string().nullable(),
  claimedat: z.string().nullable(),
  expiresat: z.string().nullable().describe('when an unclaimed link expires'),
}));
export const OrderList = z.array(Order);
export { PageMeta };

export const Rules = z.object({
  enforced: z.boolean().describe('velocity_limits_enabled: when false, use is recorded and nothing refused'),
  currency: z.string(),
  rules: z
    .array(
      z.object({
        period: z.enum(SPEND_PERIODS).describe('UTC calendar day, week (from Monday) or month'),
        limit: amount,
        used: amount.describe('face value of orders not failed or refunded, plus reservations, in the current period'),
        remaining: amount.describe('limit − used, at least 0'),
        resets_at: z.string().describe('when the next period starts (UTC)'),
      }),
    )
    .describe('day, week, month (those set)'),
});

export const InventoryList = z.array(
  z.object({
    brand: z.string(),
    denomination: amount,
    currency: z.string(),
    available: z.number().int().describe('not handed out and not expired'),
    assigned: z.number().int().describe('handed out to orders'),
  }),
);

const Tally = z.object({ count: z.number().int(), total: amount.describe('face value') });

function talliesOf<K extends string>(keys: readonly K[]) {
  return z.object(Object.fromEntries(keys.map((k) => [k, Tally])) as Record<K, typeof Tally>);
}

export const Analytics = z.object({
  currency: z.string(),
  orders: Tally.describe('every order'),
  payment_status: talliesOf(PAYMENT_STATUSES),
  fulfillment_status: talliesOf(FULFILLMENT_STATUSES),
  claim_status: talliesOf(CLAIM_STATUSES),
  scope: talliesOf(GIFT_SCOPES),
  spend: amount.describe('paid − refunded: the face value of the orders paid and not refunded (payment_status.paid.total)'),
  claim_rate: z.number().describe('claimed ÷ fulfilled orders, 0 to 1 (4 decimals); 0 when none is fulfilled'),
});
