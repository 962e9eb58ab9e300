// Typed errors with an HTTP status and a stable snake_case code, rendered by one middleware (API) or one line (CLI),
// and the catalogue every layer throws from: one named factory per code, so a code has one status everywhere.
import type { z } from 'zod';
export interface ApiErrorOptions {
  /** Extra top-level fields of the failure body (`requires_otp`, `impact`, ...). */
  extra?: Record<string, unknown>;
  /** Response headers that go with the failure (`Allow`, `Retry-After`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
  /** Every message, when there are several (the first is the error's message). */
  messages?: string[];
  /** The refused input fields, one per message (a schema's refusal), for a form that shows each at its field. */
  issues?: FieldIssue[];
}

/**
 * One refused input field as a form shows it beside the field: its path in the input, what is wrong (`missing`, a
 * text `too_long` or `too_short` with its `limit`, a number `too_big` or `too_small`, a `url`, or `invalid` with the
 * schema's own message). Never part of a response body.
 */
export interface FieldIssue {
  path: string[];
  kind: 'missing' | 'too_long' | 'too_short' | 'too_big' | 'too_small' | 'url' | 'invalid';
  limit?: number;
  message: string;
}

/** A zod issue as a FieldIssue (`missing`: the value is absent or empty, as the caller judged); `under` prefixes its path. */
export function fieldIssueOf(issue: z.core.$ZodIssue, missing: boolean, under: string[] = []): FieldIssue {
  const path = [...under, ...issue.path.map(String)];
  if (missing) return { path, kind: 'missing', message: issue.message };
  const limited = issue as { origin?: string; maximum?: unknown; minimum?: unknown; format?: string };
  if (issue.code === 'too_big' && typeof limited.maximum === 'number') {
    return { path, kind: limited.origin === 'string' ? 'too_long' : 'too_big', limit: limited.maximum, message: issue.message };
  }
  if (issue.code === 'too_small' && typeof limited.minimum === 'number') {
    return { path, kind: limited.origin === 'string' ? 'too_short' : 'too_small', limit: limited.minimum, message: issue.message };
  }
  if (issue.code === 'invalid_format' && limited.format === 'url') return { path, kind: 'url', message: issue.message };
  return { path, kind: 'invalid', message: issue.message };
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  readonly messages: string[];
  readonly issues: FieldIssue[];

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
    this.messages = options.messages ?? [message];
    this.issues = options.issues ?? [];
  }
}

/** Makes the error of one code; the code and its status are fixed, the message and options are the caller's. */
export interface ErrorFactory {
  (message: string, options?: ApiErrorOptions): ApiError;
  readonly status: number;
  readonly code: string;
}

function coded(status: number, code: string): ErrorFactory {
  const make = (message: string, options?: ApiErrorOptions) => new ApiError(status, code, message, options);
  return Object.assign(make, { status, code });
}

// 400: the request is malformed or a value has the wrong form.
export const invalidParameter = coded(400, 'invalid_parameter');
export const invalidCharacters = coded(400, 'invalid_characters');
export const malformedJson = coded(400, 'malformed_json');
export const bodyNotObject = coded(400, 'body_not_object');
export const bodyTooDeep = coded(400, 'body_too_deep');
export const malformedForm = coded(400, 'malformed_form');
export const invalidIdempotencyKey = coded(400, 'invalid_idempotency_key');
export const accountFromKey = coded(400, 'account_from_key');
export const invalidImage = coded(400, 'invalid_image');
export const unsupportedImageType = coded(400, 'unsupported_image_type');
/** `einvalid` (v1 code): the sender's email address is not valid. */
export const senderEmailInvalid = coded(400, 'einvalid');
/** `finvalid` (v1 code): a recipient's email address is not valid. */
export const recipientEmailInvalid = coded(400, 'finvalid');
/** A widget's form token is forged, another widget's or too old (the page asks for a fresh one). */
export const formExpired = coded(400, 'form_expired');
/** `tooshort` (v1 code): a send names no recipient. */
export const recipientMissing = coded(400, 'tooshort');
/** `toomany` (v1 code): a send names more recipients than one send takes. */
export const tooManySendRecipients = coded(400, 'toomany');

// 401: who is calling is unknown.
export const missingApiKey = coded(401, 'missing_api_key');
export const malformedApiKey = coded(401, 'malformed_api_key');
export const invalidApiKey = coded(401, 'invalid_api_key');
export const revokedApiKey = coded(401, 'revoked_api_key');
export const invalidAuthScheme = coded(401, 'invalid_auth_scheme');
export const invalidCredentials = coded(401, 'invalid_credentials');
export const sessionRequired = coded(401, 'session_required');

// 403: the caller is known and may not do this (now, or with this credential).
export const keyOutOfScope = coded(403, 'key_out_of_scope');
export const csrfInvalid = coded(403, 'csrf_invalid');
/** A one-time confirmation token is needed (the body says `requires_otp`). */
export const confirmationRequired = coded(403, 'confirmation_required');
/** Only the console may do this (the body says `requires_otp`). */
export const consoleOnly = coded(403, 'console_only');
export const invalidPassword = coded(403, 'invalid_password');
export const stepUpRequired = coded(403, 'step_up_required');
/** A console user who is a member of no account (sign-in). */
export const noAccount = coded(403, 'no_account');
/** A console member's role lacks what the route needs (the body says `role` and `required`). */
export const roleForbidden = coded(403, 'role_forbidden');
/** Only the account's owner may do this. */
export const ownerOnly = coded(403, 'owner_only');
export const seatLimitReached = coded(403, 'seat_limit_reached');
/** `wouldexceedlimit` (v1 code): the plan's monthly emails would run out. */
export const wouldExceedLimit = coded(403, 'wouldexceedlimit');
/** `spammer` (v1 code): sending is suspended for the account. */
export const sendingSuspended = coded(403, 'spammer');
/** `blocked` (v1 code): a sending rule refuses the send. */
export const sendBlocked = coded(403, 'blocked');
/** `notindirectory` (v1 code): the widget takes senders of the directory only. */
export const senderNotInDirectory = coded(403, 'notindirectory');
/** `spendlimit` (v1 code): a gift-card spend limit refuses the amount. */
export const spendLimit = coded(403, 'spendlimit');

// 404: nothing of the caller's by that name.
export const notFound = coded(404, 'not_found');
export const accountNotFound = coded(404, 'account_not_found');
export const keyNotFound = coded(404, 'key_not_found');
export const ownerNotFound = coded(404, 'owner_not_found');

// 405, 409, 413, 415: the method, the state of a unique thing, the size, the media type.
export const methodNotAllowed = coded(405, 'method_not_allowed');
export const keyRevoked = coded(409, 'key_revoked');
export const fieldExists = coded(409, 'field_exists');
export const ownerEmailTaken = coded(409, 'owner_email_taken');
export const payloadTooLarge = coded(413, 'payload_too_large');
export const imageTooLarge = coded(413, 'image_too_large');
export const csvTooLarge = coded(413, 'csv_too_large');
export const unsupportedMediaType = coded(415, 'unsupported_media_type');

// 422: well-formed, but missing something or refused by a rule of the domain.
export const missingField = coded(422, 'missing_field');
/** A well-formed value outside what the rule allows (bounds, a forbidden change). */
export const invalidValue = coded(422, 'invalid_value');
export const limitExceeded = coded(422, 'limit_exceeded');
export const resourceRequired = coded(422, 'resource_required');
export const passwordTooShort = coded(422, 'password_too_short');
/** The owner's role and membership change only by a transfer. */
export const ownerImmutable = coded(422, 'owner_immutable');
/** Someone becomes the owner only by the owner's transfer. */
export const ownerByTransfer = coded(422, 'owner_by_transfer');
/** A member changes or removes others, never themselves (they leave instead). */
export const ownRole = coded(422, 'own_role');
/** The owner leaves only after transferring the account. */
export const ownerMustTransfer = coded(422, 'owner_must_transfer');
export const sandboxOnly = coded(422, 'sandbox_only');
export const invalidTemplate = coded(422, 'invalid_template');
export const templateTooLarge = coded(422, 'template_too_large');
export const severalWidgets = coded(422, 'several_widgets');
export const campaignWidget = coded(422, 'campaign_widget');
/** The account's default brand cannot be deleted (make another the default first). */
export const defaultBrand = coded(422, 'default_brand');
export const unknownEcardPrice = coded(422, 'unknown_ecard_price');
export const ecardDisabled = coded(422, 'ecard_disabled');
export const memberConflict = coded(422, 'member_conflict');
export const invalidManager = coded(422, 'invalid_manager');
export const unknownCustomField = coded(422, 'unknown_custom_field');
export const sendAtPast = coded(422, 'send_at_past');
export const sendAtTooFar = coded(422, 'send_at_too_far');
export const idempotencyMismatch = coded(422, 'idempotency_mismatch');
export const notCancelable = coded(422, 'not_cancelable');
export const invalidCampaignState = coded(422, 'invalid_campaign_state');
export const campaignIncomplete = coded(422, 'campaign_incomplete');
export const campaignNotEditable = coded(422, 'campaign_not_editable');
export const csvInvalid = coded(422, 'csv_invalid');
export const tooManyRecipients = coded(422, 'too_many_recipients');
export const scheduledAtPast = coded(422, 'scheduled_at_past');
export const scheduledAtTooFar = coded(422, 'scheduled_at_too_far');
export const automationIncomplete = coded(422, 'automation_incomplete');
export const giftAmountInvalid = coded(422, 'gift_amount_invalid');
export const giftProductUnknown = coded(422, 'gift_product_unknown');
export const giftShareLink = coded(422, 'gift_share_link');
export const insufficientInventory = coded(422, 'insufficient_inventory');
export const deliveryRedacted = coded(422, 'delivery_redacted');
export const deliveryInProgress = coded(422, 'delivery_in_progress');
export const endpointRemoved = coded(422, 'endpoint_removed');
export const noEndpoint = coded(422, 'no_endpoint');
/** A public widget's priced eCard: no payment is taken (or faked) until payments exist. */
export const paymentRequired = coded(422, 'payment_required');
/** The widget takes senders who proved their address (a widget session for that address) only. */
export const verificationRequired = coded(422, 'verification_required');
/** A widget's sender verification code is wrong (the body says `tries_left`). */
export const codeInvalid = coded(422, 'code_invalid');
/** A widget's sender verification code is older than 10 minutes, or none was asked for. */
export const codeExpired = coded(422, 'code_expired');
/** An address that is a member of the account's directory: erased as a member, not as a stranger. */
export const directoryMember = coded(422, 'directory_member');

// 429, 5xx: come back later, or it is on our side.
export const rateLimited = coded(429, 'rate_limited');
export const signInThrottled = coded(429, 'sign_in_throttled');
/** A recipient's page has sent its three thank-yous. */
export const thanksLimit = coded(429, 'thanks_limit');
/** `limitReached` (v1 code): a public widget's per-IP window or its daily cap of emails is spent. */
export const widgetLimitReached = coded(429, 'limitReached');
/** A widget's verification code had its five tries (the visitor asks for a new code). */
export const codeTriesExhausted = coded(429, 'code_tries_exhausted');
export const internalError = coded(500, 'internal_error');
/** `provider`: the mail transport (or its absence) failed the send. */
export const providerFailed = coded(502, 'provider');
export const serviceUnavailable = coded(503, 'service_unavailable');

/**
 * 422 naming every required field that is missing, null or empty (save endpoints: "required" means
 * required on create). Keys are the field names as the client wrote them, e.g. `widget.name`.
 */
export function requireFields(fields: Record<string, unknown>): void {
  const missing = Object.entries(fields)
    .filter(([, value]) => value === undefined || value === null || value === '')
    .map(([name]) => `${name} is required`);
  if (missing.length) throw missingField(missing[0]!, { messages: missing });
}
