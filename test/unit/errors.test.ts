import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import * as errors from '../../lib/errors.ts';
import { ApiError, type ErrorFactory } from '../../lib/errors.ts';

// The status each code has, everywhere it is answered. A code is never given a second status: a new code goes
// here and into the catalogue, and a different refusal gets a different code.
const STATUS_OF_CODE: Record<string, number> = {
  invalid_parameter: 400,
  form_expired: 400,
  payment_required: 422,
  verification_required: 422,
  limitReached: 429,
  invalid_characters: 400,
  malformed_json: 400,
  body_not_object: 400,
  body_too_deep: 400,
  malformed_form: 400,
  invalid_idempotency_key: 400,
  account_from_key: 400,
  invalid_image: 400,
  unsupported_image_type: 400,
  einvalid: 400,
  finvalid: 400,
  tooshort: 400,
  toomany: 400,
  missing_api_key: 401,
  malformed_api_key: 401,
  invalid_api_key: 401,
  revoked_api_key: 401,
  invalid_auth_scheme: 401,
  invalid_credentials: 401,
  session_required: 401,
  key_out_of_scope: 403,
  csrf_invalid: 403,
  confirmation_required: 403,
  console_only: 403,
  invalid_password: 403,
  step_up_required: 403,
  no_account: 403,
  role_forbidden: 403,
  owner_only: 403,
  seat_limit_reached: 403,
  wouldexceedlimit: 403,
  spammer: 403,
  blocked: 403,
  notindirectory: 403,
  spendlimit: 403,
  not_found: 404,
  account_not_found: 404,
  key_not_found: 404,
  owner_not_found: 404,
  method_not_allowed: 405,
  key_revoked: 409,
  field_exists: 409,
  owner_email_taken: 409,
  payload_too_large: 413,
  image_too_large: 413,
  csv_too_large: 413,
  unsupported_media_type: 415,
  missing_field: 422,
  invalid_value: 422,
  limit_exceeded: 422,
  resource_required: 422,
  password_too_short: 422,
  owner_immutable: 422,
  owner_by_transfer: 422,
  own_role: 422,
  owner_must_transfer: 422,
  sandbox_only: 422,
  invalid_template: 422,
  template_too_large: 422,
  several_widgets: 422,
  campaign_widget: 422,
  default_brand: 422,
  unknown_ecard_price: 422,
  ecard_disabled: 422,
  member_conflict: 422,
  invalid_manager: 422,
  unknown_custom_field: 422,
  send_at_past: 422,
  send_at_too_far: 422,
  idempotency_mismatch: 422,
  not_cancelable: 422,
  invalid_campaign_state: 422,
  campaign_incomplete: 422,
  campaign_not_editable: 422,
  csv_invalid: 422,
  too_many_recipients: 422,
  scheduled_at_past: 422,
  scheduled_at_too_far: 422,
  automation_incomplete: 422,
  gift_amount_invalid: 422,
  gift_product_unknown: 422,
  gift_share_link: 422,
  insufficient_inventory: 422,
  delivery_redacted: 422,
  delivery_in_progress: 422,
  endpoint_removed: 422,
  no_endpoint: 422,
  code_invalid: 422,
  code_expired: 422,
  directory_member: 422,
  rate_limited: 429,
  sign_in_throttled: 429,
  thanks_limit: 429,
  code_tries_exhausted: 429,
  internal_error: 500,
  provider: 502,
  service_unavailable: 503,
};

const isFactory = (value: unknown): value is ErrorFactory =>
  typeof value === 'function' && value !== ApiError && typeof (value as Partial<ErrorFactory>).code === 'string';

const factories = Object.entries(errors).filter((entry): entry is [string, ErrorFactory] => isFactory(entry[1]));

/** Every .ts file under a directory (relative to the repository root). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the error catalogue', () => {
  it('has a factory for every code of the table and no code outside it', () => {
    expect(factories.map(([, make]) => make.code).sort()).to.deep.equal(Object.keys(STATUS_OF_CODE).sort());
  });

  it('gives each code one factory', () => {
    const codes = factories.map(([, make]) => make.code);
    expect(codes.filter((code, i) => codes.indexOf(code) !== i)).to.deep.equal([]);
  });

  for (const [name, make] of factories) {
    it(`${name} makes ${make.code} with the status its code has everywhere`, () => {
      const error = make('a message');
      expect(error).to.be.instanceOf(ApiError);
      expect([error.status, error.code, make.status]).to.deep.equal([STATUS_OF_CODE[make.code], make.code, STATUS_OF_CODE[make.code]]);
    });
  }

  it('invalid_parameter is 400 and invalid_value (a well-formed value a rule refuses) is 422', () => {
    expect([errors.invalidParameter('x').status, errors.invalidValue('x').status]).to.deep.equal([400, 422]);
  });

  it('keeps the message, the extra fields, the headers and every message as given', () => {
    const error = errors.rateLimited('slow down', { headers: { 'Retry-After': '7' }, extra: { limit: 5 }, messages: ['slow down', 'really'] });
    expect(error.message).to.equal('slow down');
    expect(error.headers).to.deep.equal({ 'Retry-After': '7' });
    expect(error.extra).to.deep.equal({ limit: 5 });
    expect(error.messages).to.deep.equal(['slow down', 'really']);
    expect(errors.notFound('gone').messages).to.deep.equal(['gone']);
  });

  it('requireFields throws missing_field (422) naming every missing field', () => {
    expect(() => errors.requireFields({ name: '', email: null, ok: 'x' })).to.throw(ApiError).that.satisfies((err: ApiError) => {
      expect([err.status, err.code, err.messages]).to.deep.equal([422, 'missing_field', ['name is required', 'email is required']]);
      return true;
    });
  });

  it('is the only place an ApiError is built: no layer writes a status and a code inline', () => {
    const root = join(import.meta.dirname, '..', '..');
    const inline = ['services', 'api', 'cli', 'app', 'activities', 'workflows', 'models', 'lib']
      .flatMap((dir) => sourceFiles(join(root, dir)))
      .filter((file) => !file.endsWith(join('lib', 'errors.ts')))
      .filter((file) => /new ApiError\s*\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(inline).to.deep.equal([]);
  });
});
