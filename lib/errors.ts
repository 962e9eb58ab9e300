// Typed errors with an HTTP status and a stable snake_case code, rendered by one middleware (API) or one line (CLI).
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
