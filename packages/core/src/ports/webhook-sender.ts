/**
 * The webhook sender port: one HTTP POST of a signed delivery, and what came back. The default
 * (`webhooks/https-delivery.ts`) posts over HTTPS with a 10 s timeout, never follows redirects,
 * and refuses private addresses at connect time; tests and hosts may pass their own.
 */

/** One delivery attempt: where, what and with which headers (see `signDelivery`). */
export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** What happened to one attempt, ready to be logged and to decide on a retry. Never a rejection. */
export interface WebhookResponse {
  /** The receiver answered 2xx. */
  ok: boolean;
  /** The answer's status; `null` when none came (timeout, connection or TLS failure, blocked address). */
  status: number | null;
  /** From the start of the attempt to its outcome, in whole milliseconds. */
  durationMs: number;
  /** The first 1 KiB of the answer's body, decoded as UTF-8 (a character cut in half is dropped). */
  responseExcerpt: string;
  /** The wait the receiver asked for in `Retry-After` (seconds or HTTP date), in ms; `null` without one. */
  retryAfterMs: number | null;
  /**
   * Why there is no usable answer, for a person: `timeout after 10 s`, `connect ECONNREFUSED
   * 127.0.0.1:443`, `blocked address 127.0.0.1 (loopback)`, a TLS error, `redirect to ... not
   * followed`. `null` when the receiver answered with any other status.
   */
  error: string | null;
}

/** Posts webhook deliveries. */
export interface WebhookSender {
  /** Makes one attempt; never throws, every failure is a response. */
  post(request: WebhookRequest): Promise<WebhookResponse>;
  /** Releases sockets (called by `mailpulse.stop()`). */
  close?(): void;
}
