/**
 * Every failure MailPulse reports to a client: one class, one code table.
 *
 * Services throw `MailPulseError`; the HTTP handler maps its code to a status through
 * {@link errorStatus} and answers `{"error": message}`. Anything else thrown is a bug: it is
 * logged with its stack and answered 500 with a generic message.
 */

/** The status of each error code. Exhaustive: adding a code without a status fails to compile. */
export const errorStatus = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  CAMPAIGN_ARCHIVED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PLAN_LIMIT_REACHED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RECIPIENTS_SUPPRESSED: 422,
  NOT_A_RECIPIENT: 422,
  RATE_LIMITED: 429,
  DELIVERY_FAILED: 500,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

/** An UPPER_SNAKE error code; see {@link errorStatus} for its HTTP status. */
export type MailPulseErrorCode = keyof typeof errorStatus;

/** One problem with an input: where it is and what is wrong there. */
export interface ValidationIssue {
  /** Keys from the input's root to the offending value, e.g. `["to", 1]`; empty for the input itself. */
  path: ReadonlyArray<string | number>;
  /** What is wrong, for a person: `is required`, `must not be empty`. */
  message: string;
}

/** Options of the {@link MailPulseError} constructor. */
export interface MailPulseErrorOptions {
  headers?: Record<string, string>;
  /** The problems of a VALIDATION_FAILED input, field by field. */
  issues?: readonly ValidationIssue[];
  cause?: unknown;
}

/** An error whose message is safe and useful to show to the API client. */
export class MailPulseError extends Error {
  override readonly name = "MailPulseError";
  /** Extra response headers, e.g. `Allow` on 405 or `Retry-After` on 429. */
  readonly headers: Record<string, string>;
  /**
   * For VALIDATION_FAILED: each problem of the input with its path, so a caller can point at the
   * field (the message already names up to five). Empty for every other code.
   */
  readonly issues: readonly ValidationIssue[];

  constructor(
    readonly code: MailPulseErrorCode,
    message: string,
    options: MailPulseErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.headers = options.headers ?? {};
    this.issues = options.issues ?? [];
  }

  /** The HTTP status this error is answered with. */
  get status(): number {
    return errorStatus[this.code];
  }
}

/** A resource that does not exist or belongs to another organization (both are 404 by design). */
export function notFound(what: string): MailPulseError {
  return new MailPulseError("NOT_FOUND", `${what} not found`);
}

/**
 * True for a `MailPulseError` of any code, or of the given code. Also recognises one thrown by
 * another copy of this package (the ESM and the CJS build, or two installed versions), which
 * `instanceof` misses: by its `name` and a known `code`.
 */
export function isMailPulseError(error: unknown, code?: MailPulseErrorCode): error is MailPulseError {
  const recognised =
    error instanceof MailPulseError ||
    (typeof error === "object" &&
      error !== null &&
      (error as { name?: unknown }).name === "MailPulseError" &&
      typeof (error as { code?: unknown }).code === "string" &&
      Object.hasOwn(errorStatus, (error as { code: string }).code));
  return recognised && (code === undefined || (error as MailPulseError).code === code);
}
