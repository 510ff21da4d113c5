import type { MailPulseOptions, OutgoingMessage } from "@mailpulse/core";
import { createMailPulse, type MailPulse } from "@mailpulse/core";
import type { Storage } from "@mailpulse/core/storage";
import { createTestClock, type TestClock } from "../test-clock.js";
import { createTestLogger, type TestLogger } from "./test-logger.js";
import { createTestOutbox, type OutboxMessage, type TestOutbox } from "./test-outbox.js";

/** Options of {@link createTestMailPulse}: `storage`, plus any option of `createMailPulse` but the four the kit owns. */
export interface TestMailPulseOptions
  extends Partial<Omit<MailPulseOptions, "storage" | "mailProvider" | "clock" | "logger">> {
  /** A migrated storage. The kit owns it from now on: `close()` closes it. */
  storage: Storage;
  /** Where the shared clock starts. Default `2026-01-15T12:00:00.000Z`. */
  now?: Date | string;
  /** Return an Error to make the provider refuse a message (a delivery failure). Default: accept all. */
  fail?: (message: OutgoingMessage) => Error | undefined;
}

/** Who loads a pixel or follows a link in {@link TestMailPulse.open} and {@link TestMailPulse.click}. */
export interface TestVisitor {
  /** The `User-Agent` header. Default: a reader's mail client (open) or browser (click). */
  userAgent?: string;
  /** The client's IP address. Default `192.0.2.1` (a documentation address). */
  clientIp?: string;
}

/**
 * A desktop mail client loading images: what `open` sends unless told otherwise. Judged a
 * person's (docs/measurement.md), so human figures move as they would for a reader.
 */
const readerMailClient =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Thunderbird/128.4.2";
/** A desktop browser following a link: what `click` sends unless told otherwise. */
const readerBrowser =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

/** A MailPulse instance wired for tests, with handles on everything it would otherwise hide. */
export interface TestMailPulse {
  /** The instance: services, `handler`, `routes`. Not started: no background timers run. */
  mailpulse: MailPulse;
  /** What it "sent", with tracking ids and link URLs. */
  outbox: TestOutbox;
  /** The one clock of the instance and the outbox; move it to shape statistics periods. */
  clock: TestClock;
  /** The instance's log lines, kept instead of printed. */
  logger: TestLogger;
  /**
   * Loads the message's open pixel as a reader's mail client would (an open); the GIF response.
   * Pass `visitor.userAgent` to be someone else, e.g. Apple's privacy proxy (`"Mozilla/5.0"`).
   */
  open(message: OutboxMessage, visitor?: TestVisitor): Promise<Response>;
  /**
   * Follows one of the message's tracked links as a reader's browser would (a click): `link` is
   * the original URL or the link's index (default 0). The response is the 302 to the original URL.
   * The hit is judged on its timing too: a click within 5 s of the send, or within 1 s of an
   * open from the same address, is a scanner's whatever its user agent, so move `clock` between
   * them as a reader would.
   */
  click(message: OutboxMessage, link?: string | number, visitor?: TestVisitor): Promise<Response>;
  /** A new organization and an API key for it, for tests that go through HTTP. */
  createOrganization(name?: string): Promise<{ organizationId: string; apiKey: string }>;
  /** Stops the instance (writing queued tracking hits) and closes the storage. Idempotent. */
  close(): Promise<void>;
}

/**
 * A MailPulse for a host app's tests: captured mail instead of delivery, one shared
 * {@link TestClock}, a quiet logger, and helpers that open and click like a recipient. Opens and
 * clicks go through the real tracking endpoints (`mailpulse.handler`) and are committed when the
 * helper resolves, so statistics read right after see them. `@mailpulse/storage-sqlite/testing`
 * provides the same on an in-memory SQLite database without a `storage` option.
 */
export function createTestMailPulse(options: TestMailPulseOptions): TestMailPulse {
  const { storage, now, fail, ...rest } = options;
  const clock = createTestClock(now);
  const logger = createTestLogger();
  const baseUrl = (rest.baseUrl ?? "https://mailpulse.test").replace(/\/+$/, "");
  const basePath = (rest.basePath ?? "/api").replace(/\/+$/, "");
  const { outbox, provider } = createTestOutbox({ tracking: storage.tracking, basePath, clock, fail });
  const mailpulse = createMailPulse({ ...rest, storage, baseUrl, mailProvider: provider, clock, logger });
  const mountPath = new URL(baseUrl).pathname.replace(/\/+$/, "");

  /** A tracking URL as a request to the handler, which routes on the path below the mount point. */
  const visit = async (url: string, userAgent: string, clientIp = "192.0.2.1"): Promise<Response> => {
    const { pathname, search } = new URL(url);
    const path =
      mountPath !== "" && pathname.startsWith(`${mountPath}/`) ? pathname.slice(mountPath.length) : pathname;
    const request = new Request(`http://mailpulse.test${path}${search}`, {
      headers: { "user-agent": userAgent },
    });
    const response = await mailpulse.handler(request, { clientIp });
    // A hit that reveals a scanner revises earlier verdicts after its own commit: wait for that
    // too, so what the test reads next is final.
    await mailpulse.tracking.revisionsSettled();
    return response;
  };

  let closed: Promise<void> | undefined;
  return {
    mailpulse,
    outbox,
    clock,
    logger,
    open(message, visitor = {}) {
      if (message.pixelUrl === undefined)
        throw new Error("This message has no open pixel (open tracking was off)");
      return visit(message.pixelUrl, visitor.userAgent ?? readerMailClient, visitor.clientIp);
    },
    click(message, link = 0, visitor = {}) {
      const found =
        typeof link === "number"
          ? message.links[link]
          : message.links.find((each) => each.originalUrl === link);
      if (found === undefined) {
        const known = message.links.map((each) => each.originalUrl).join(", ") || "none";
        throw new Error(`This message has no tracked link ${JSON.stringify(link)} (its links: ${known})`);
      }
      return visit(found.trackingUrl, visitor.userAgent ?? readerBrowser, visitor.clientIp);
    },
    async createOrganization(name = "Test organization") {
      const organization = await mailpulse.organizations.create({ name });
      const { key } = await mailpulse.apiKeys.create(organization.id);
      return { organizationId: organization.id, apiKey: key };
    },
    close() {
      closed ??= mailpulse.stop().then(() => storage.close());
      return closed;
    },
  };
}
