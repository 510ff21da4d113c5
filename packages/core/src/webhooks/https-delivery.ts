import { lookup as systemLookup } from "node:dns";
import type { ClientRequest, IncomingMessage } from "node:http";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent, request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import { rootCertificates } from "node:tls";
import type { WebhookRequest, WebhookResponse, WebhookSender } from "../ports/webhook-sender.js";
import { isBlockedAddress } from "./address-policy.js";
import { BlockedAddressError, blockPrivateAddresses } from "./guarded-lookup.js";
import { readResponseExcerpt } from "./response-excerpt.js";
import { parseRetryAfter } from "./retry-after.js";
import { parseWebhookUrl } from "./webhook-url.js";

/** Default time one attempt may take, connecting and answering included: 10 s. */
export const defaultWebhookTimeoutMs = 10_000;

/** Options of {@link createWebhookTransport}. */
export interface WebhookTransportOptions {
  /** The limit of one whole attempt (DNS, connect, TLS, request, answer), in ms. Default 10 000. */
  timeoutMs?: number;
  /** Deliver to loopback and private addresses too: for local development and tests. Off by default. */
  allowPrivateNetworks: boolean;
  /** Resolver with node's `dns.lookup` signature; default `dns.lookup`. Tests pass a rebinding one. */
  lookup?: LookupFunction;
  /**
   * A CA certificate (PEM) to trust besides the bundled roots, e.g. a test receiver's
   * self-signed one. `NODE_EXTRA_CA_CERTS` works too when this is not set.
   */
  ca?: string | Buffer;
  /** The wall clock, in epoch ms, to count a `Retry-After` date from; default `Date.now`. */
  now?: () => number;
}

export type { WebhookRequest } from "../ports/webhook-sender.js";

/** What happened to one attempt: the port's {@link WebhookResponse}. */
export type DeliveryOutcome = WebhookResponse;

/** Sends webhook deliveries over HTTPS: the default {@link WebhookSender}. */
export interface WebhookTransport extends WebhookSender {
  /** Makes one attempt; never throws, every failure is an outcome. */
  post(request: WebhookRequest): Promise<DeliveryOutcome>;
  /** Closes the kept-alive connections; pending attempts fail. */
  close(): void;
}

class AttemptTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`timeout after ${timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`}`);
  }
}

/** A failure in words; happy-eyeballs' AggregateError has an empty message of its own. */
function describeError(error: unknown): string {
  if (error instanceof AggregateError && !error.message) {
    return [...new Set(error.errors.map(describeError))].join("; ");
  }
  if (error instanceof Error) {
    return error.message || String((error as { code?: unknown }).code ?? error.name);
  }
  return String(error);
}

/**
 * Creates the HTTPS client of webhook deliveries. Unless `allowPrivateNetworks`, every address a
 * host name resolves to is checked when the socket connects (so a DNS answer that changed since
 * the webhook was saved cannot reach an internal address) and an IP-literal host before the
 * request starts. Redirects are never followed: a 3xx is a failed attempt with its status. The
 * timeout covers the whole attempt; of the answer's body at most 1 KiB is read, then the socket
 * is discarded, so a receiver streaming an endless body costs nothing. Connections are kept
 * alive between attempts to the same receiver.
 */
export function createWebhookTransport(options: WebhookTransportOptions): WebhookTransport {
  const timeoutMs = options.timeoutMs ?? defaultWebhookTimeoutMs;
  const now = options.now ?? Date.now;
  const lookup = options.allowPrivateNetworks
    ? options.lookup
    : blockPrivateAddresses(options.lookup ?? systemLookup);
  const agent = new Agent({
    keepAlive: true,
    // `ca` replaces the bundled roots; keep them, so a test CA adds trust instead of swapping it.
    ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca.toString()] }),
    ...(lookup === undefined ? {} : { lookup }),
  });
  // Plain http:// only ever reaches URLs accepted while private networks are allowed.
  const plainAgent = options.allowPrivateNetworks
    ? new HttpAgent({ keepAlive: true, ...(lookup === undefined ? {} : { lookup }) })
    : undefined;

  async function post(request: WebhookRequest): Promise<DeliveryOutcome> {
    const startedAt = performance.now();
    const outcome = (fields: Partial<DeliveryOutcome>): DeliveryOutcome => ({
      ok: false,
      status: null,
      responseExcerpt: "",
      retryAfterMs: null,
      error: null,
      ...fields,
      durationMs: Math.round(performance.now() - startedAt),
    });
    const refusal = refuseBeforeConnecting(request.url, options.allowPrivateNetworks);
    if (refusal) return outcome({ error: refusal });

    return outcome(await attempt(request));
  }

  /** One request: its outcome's fields, once the answer's excerpt is read or it failed. */
  function attempt(request: WebhookRequest): Promise<Partial<DeliveryOutcome>> {
    const body = Buffer.from(request.body, "utf8");
    return new Promise((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const settle = (fields: Partial<DeliveryOutcome>): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(fields);
      };
      let outgoing: ClientRequest;
      try {
        const init = {
          method: "POST",
          headers: { ...request.headers, "content-length": String(body.length) },
        };
        outgoing =
          plainAgent !== undefined && request.url.startsWith("http:")
            ? httpRequest(request.url, { ...init, agent: plainAgent })
            : httpsRequest(request.url, { ...init, agent });
      } catch (error) {
        // E.g. a header value with a line break: refused before anything is sent.
        settle({ error: describeError(error) });
        return;
      }
      let onTimeout = (): void => {
        outgoing.destroy();
        settle({ error: new AttemptTimeoutError(timeoutMs).message });
      };
      timer = setTimeout(() => onTimeout(), timeoutMs);
      outgoing.on("error", (error) => settle({ error: describeError(error) }));
      outgoing.on("response", (response: IncomingMessage) => {
        const status = response.statusCode ?? null;
        const answered = {
          ok: status !== null && status >= 200 && status < 300,
          status,
          retryAfterMs: parseRetryAfter(singleHeader(response.headers["retry-after"]), now()),
          error: status !== null && status >= 300 && status < 400 ? redirectNotFollowed(response) : null,
        };
        const excerpt = readResponseExcerpt(response);
        // Past the status line the receiver has answered: a body still trickling in when time is
        // up is cut off and the attempt keeps its status with what arrived.
        onTimeout = () => excerpt.stop();
        excerpt.text.then((responseExcerpt) => settle({ ...answered, responseExcerpt }));
      });
      outgoing.end(body);
    });
  }

  return {
    post,
    close() {
      agent.destroy();
      plainAgent?.destroy();
    },
  };
}

/**
 * The refusal of a request that must not start, or null: a URL `parseWebhookUrl` refuses (not
 * https, credentials, ...) or, since an IP literal never goes through `lookup`, a blocked
 * IP-literal host.
 */
function refuseBeforeConnecting(rawUrl: string, allowPrivateNetworks: boolean): string | null {
  let url: URL;
  try {
    url = parseWebhookUrl(rawUrl, { allowHttp: allowPrivateNetworks });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (allowPrivateNetworks) return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!isIP(host)) return null;
  const range = isBlockedAddress(host);
  return range ? new BlockedAddressError(host, range).message : null;
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function redirectNotFollowed(response: IncomingMessage): string {
  const location = singleHeader(response.headers.location);
  if (!location) return "redirect not followed";
  const shown = location.length > 200 ? `${location.slice(0, 200)}...` : location;
  return `redirect to ${shown} not followed`;
}
