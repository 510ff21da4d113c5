/**
 * The webhook sender port: one HTTP POST of a signed delivery, and what came back. The default
 * (`webhooks/https-delivery.ts`) posts over HTTPS with a 10 s timeout, never follows redirects,
 * and refuses private addresses at connect time; tests and hosts may pass their own.
 */

/** One delivery request: the exact body bytes and the signed headers. */
export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** What an attempt got: never a rejection, every failure is described here. */
export interface WebhookResponse {
  /** A 2xx answer. */
  ok: boolean;
  /** The receiver's status; null when no answer came. */
  status: number | null;
  durationMs: number;
  /** The first KiB of the answer's body. */
  responseExcerpt: string;
  /** The answer's `Retry-After`, in milliseconds from now. */
  retryAfterMs: number | null;
  /** Why no 2xx came: `timeout after 10 s`, `connect ECONNREFUSED`, a blocked address... */
  error: string | null;
}

/** Posts webhook deliveries. */
export interface WebhookSender {
  post(request: WebhookRequest): Promise<WebhookResponse>;
  /** Releases sockets (called by `mailpulse.stop()`). */
  close?(): void;
}
