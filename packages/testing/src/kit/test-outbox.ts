import { randomBytes } from "node:crypto";
import type { CapturedMessage, Clock, MailProvider, OutgoingMessage } from "@mailpulse/core";
import type { TrackingStore } from "@mailpulse/core/storage";

/** A tracked link of a sent message, as `POST /api/send` reports it. */
export interface OutboxLink {
  /** The URL the recipient lands on. */
  originalUrl: string;
  /** The link occurrence's tracking id (`/api/t/c/<trackingId>`). */
  trackingId: string;
  /** The redirect URL written into the HTML. */
  trackingUrl: string;
}

/** A message MailPulse handed to the mail provider, with what tracking put into it. */
export interface OutboxMessage extends CapturedMessage {
  /** The email's open-tracking id (its `X-MailPulse-Tracking-Id` header, `emailTrackingId` in the API). */
  trackingId: string;
  /** The open pixel's URL in the HTML; `undefined` when open tracking was switched off. */
  pixelUrl: string | undefined;
  /** The tracked links in the order they appear in the HTML; empty when click tracking was off. */
  links: OutboxLink[];
}

/** The messages a test instance "sent". Nothing leaves the process. */
export interface TestOutbox {
  /** Every accepted message, oldest first. */
  readonly messages: readonly OutboxMessage[];
  /** The newest message; throws when nothing was sent, so a test fails with a clear reason. */
  last(): OutboxMessage;
  /** The messages with `address` among their to, cc or bcc recipients (case-insensitive). */
  to(address: string): OutboxMessage[];
  /** Forgets every message. */
  clear(): void;
}

/** Options of {@link createTestOutbox}. */
export interface TestOutboxOptions {
  /** Reads the links' original URLs (the instance's tracking store). */
  tracking: TrackingStore;
  /** The API's base path, to find tracking URLs in the HTML. */
  basePath: string;
  /** Stamps `acceptedAt`. */
  clock: Clock;
  /** Return an Error to make the provider refuse a message (a delivery failure). Default: accept all. */
  fail?: (message: OutgoingMessage) => Error | undefined;
}

/** A {@link TestOutbox} and the {@link MailProvider} that fills it. */
export function createTestOutbox(options: TestOutboxOptions): { outbox: TestOutbox; provider: MailProvider } {
  const messages: OutboxMessage[] = [];
  const escaped = options.basePath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // Tracking ids are base64url; a URL ends at the attribute's quote.
  const pixelPattern = new RegExp(`[^"'\\s<>]*${escaped}/t/o/[\\w-]+`);
  const clickPattern = new RegExp(`[^"'\\s<>]*${escaped}/t/c/([\\w-]+)`, "g");

  const provider: MailProvider = {
    // Captured, never delivered: a loopback baseUrl is fine for it.
    capturesOnly: true,
    async send(message) {
      const error = options.fail?.(message);
      if (error) throw error;
      const links = [...message.html.matchAll(clickPattern)].map((match) => ({
        originalUrl: "",
        trackingId: match[1]!,
        trackingUrl: match[0],
      }));
      const captured: OutboxMessage = {
        ...structuredClone(message),
        id: `${randomBytes(16).toString("hex")}@outbox.mailpulse`,
        acceptedAt: options.clock.now(),
        trackingId: message.headers["X-MailPulse-Tracking-Id"] ?? "",
        pixelUrl: message.html.match(pixelPattern)?.[0],
        links,
      };
      // Kept in acceptance order at once; the originals are filled in before `send` resolves.
      messages.push(captured);
      if (links.length > 0) {
        // The HTML only holds redirect URLs; the originals are in the store, written before the send.
        const targets = await options.tracking.findLinks(links.map((link) => link.trackingId));
        const originals = new Map(targets.map((target) => [target.id, target.url]));
        for (const link of links) link.originalUrl = originals.get(link.trackingId) ?? "";
      }
      return { id: captured.id };
    },
  };

  const outbox: TestOutbox = {
    get messages(): readonly OutboxMessage[] {
      return messages;
    },
    last() {
      const message = messages[messages.length - 1];
      if (message === undefined) throw new Error("The test outbox is empty: nothing was sent");
      return message;
    },
    to(address) {
      const wanted = address.toLowerCase();
      return messages.filter((message) =>
        [...message.to, ...message.cc, ...message.bcc].some(
          (recipient) => recipient.address.toLowerCase() === wanted,
        ),
      );
    },
    clear() {
      messages.length = 0;
    },
  };
  return { outbox, provider };
}
