import { randomBytes } from "node:crypto";
import type { Clock } from "../ports/clock.js";
import { systemClock } from "../ports/clock.js";
import {
  type MailProvider,
  type OutgoingMessage,
  type RecipientRejection,
  RecipientsRejectedError,
  type SendResult,
} from "../ports/mail-provider.js";

/**
 * A message the memory provider accepted: a copy of what was sent (its `envelopes`, the
 * per-recipient return paths, included), with its id and time.
 */
export type CapturedMessage = OutgoingMessage & {
  /** The id `send` resolved with, `<random hex>@memory.mailpulse`. */
  id: string;
  /** When the provider accepted the message, from the injected clock. */
  acceptedAt: Date;
};

/** Options of {@link memoryProvider}. All optional. */
export interface MemoryProviderOptions {
  /**
   * Receives one line per message, accepted or rejected, e.g.
   * `memory provider: accepted 3f…@memory.mailpulse from a@b.test to x@y.test, 1 bcc "Hello"`
   * (bcc recipients are counted, never named).
   * The standalone server passes its logger so users see that nothing really went out.
   * Default: no logging.
   */
  log?: (line: string) => void;
  /**
   * Simulates a rejection: when it returns an Error, `send` rejects with it and the message is not
   * captured. Default: every message is accepted.
   */
  fail?: (message: OutgoingMessage) => Error | undefined;
  /**
   * Simulates a receiving server that refuses some recipients, as the SMTP provider reports a 4xx
   * or 5xx reply at RCPT TO: return the refusal of an address (each recipient of the envelopes,
   * or of `to`, `cc` and `bcc` without envelopes), or undefined to accept it. The message is
   * captured when one recipient is accepted (`send` resolves with the others in `rejected`);
   * when none is, `send` rejects with a `RecipientsRejectedError`. Default: accept everyone.
   */
  rejectRecipient?: (address: string) => Omit<RecipientRejection, "address"> | undefined;
  /** Source of `acceptedAt`. Default: the system clock. */
  clock?: Clock;
  /**
   * Messages kept at most; past it the oldest go first. Default: all of them, which is what tests
   * want. A long-running server that uses this provider as a placeholder sets a bound, or its
   * memory grows with every send (the built-in defaults keep none).
   */
  keep?: number;
}

/** A {@link MailProvider} that keeps messages in memory instead of delivering them. */
export interface MemoryProvider extends MailProvider {
  /** The accepted messages, oldest first. Copies: later changes to a sent object do not show here. */
  readonly messages: ReadonlyArray<CapturedMessage>;
  /** Forgets every captured message. */
  clear(): void;
}

/**
 * Creates a provider that captures messages instead of sending them: for tests, and the
 * standalone server's default when no SMTP URL is configured. Nothing leaves the process.
 */
export function memoryProvider(options: MemoryProviderOptions = {}): MemoryProvider {
  const { log, fail, rejectRecipient, clock = systemClock, keep = Number.POSITIVE_INFINITY } = options;
  const messages: CapturedMessage[] = [];

  return {
    capturesOnly: true,
    get messages(): ReadonlyArray<CapturedMessage> {
      return messages;
    },
    clear(): void {
      messages.length = 0;
    },
    async send(message: OutgoingMessage): Promise<SendResult> {
      const summary = `from ${message.from.address} to ${recipients(message)} ${JSON.stringify(message.subject)}`;
      const error = fail?.(message);
      if (error) {
        log?.(`memory provider: rejected ${summary}: ${error.message}`);
        throw error;
      }
      const rejected: RecipientRejection[] = [];
      const addresses = message.envelopes?.length
        ? message.envelopes.flatMap((envelope) => envelope.to)
        : [...message.to, ...message.cc, ...message.bcc].map((mailbox) => mailbox.address);
      for (const address of addresses) {
        const refusal = rejectRecipient?.(address);
        if (refusal) rejected.push({ address, ...refusal });
      }
      if (rejected.length > 0 && rejected.length === addresses.length) {
        const words = rejected.map((rejection) => `${rejection.address}: ${rejection.diagnostic}`);
        const error = new RecipientsRejectedError(
          `Message failed: every recipient was refused: ${words.join("; ")}`,
          rejected,
        );
        log?.(`memory provider: rejected ${summary}: ${error.message}`);
        throw error;
      }
      const id = `${randomBytes(16).toString("hex")}@memory.mailpulse`;
      if (keep > 0) {
        messages.push({ ...structuredClone(message), id, acceptedAt: clock.now() });
        if (messages.length > keep) messages.splice(0, messages.length - keep);
      }
      // Nothing reaches a mailbox, so the log line is where someone trying MailPulse finds the
      // one-click unsubscribe URL the message carried.
      const unsubscribe = listUnsubscribeUrl(message.headers);
      log?.(
        `memory provider: accepted ${id} ${summary}${unsubscribe ? ` (List-Unsubscribe ${unsubscribe})` : ""}`,
      );
      return rejected.length > 0 ? { id, rejected } : { id };
    },
  };
}

/**
 * The visible recipients, and only the number of blind ones: a log line is read by more people
 * than the sender meant to tell who was in bcc.
 */
function recipients(message: OutgoingMessage): string {
  const visible = [...message.to, ...message.cc].map((recipient) => recipient.address);
  const blind = message.bcc.length > 0 ? [`${message.bcc.length} bcc`] : [];
  const all = [...visible, ...blind];
  return all.length > 0 ? all.join(", ") : "(no recipients)";
}

/** The http(s) URL of a `List-Unsubscribe` header, whatever the header name's case; undefined without one. */
function listUnsubscribeUrl(headers: Record<string, string>): string | undefined {
  const name = Object.keys(headers).find((key) => key.toLowerCase() === "list-unsubscribe");
  return name === undefined ? undefined : /<(https?:[^>]+)>/.exec(headers[name] ?? "")?.[1];
}
