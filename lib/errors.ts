// Typed errors with an HTTP status and a stable snake_case code, rendered by one middleware (API) or one line (CLI).
export interface ApiErrorOptions {
  /** Extra top-level fields of the failure body (`requires_otp`, `impact`, ...). */
  extra?: Record<string, unknown>;
  /** Response headers that go with the failure (`Allow`, `Retry-After`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
  /** Every message, when there are several (the first is the error's message). */
  messages?: string[];
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  readonly messages: string[];

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
  }
}

/**
 * 422 naming every required field that is missing, null or empty (save endpoints: "required" means
 * required on create). Keys are the field names as the client wrote them, e.g. `widget.name`.
 */
export function requireFields(fields: Record<string, unknown>): void {
  const missing = Object.entries(fields)
    .filter(([, value]) => value === undefined || value === null || value === '')
    .map(([name]) => `${name} is required`);
  if (missing.length) throw new ApiError(422, 'missing_field', missing[0]!, { messages: missing });
}
