import type { Address, SendMailOptions, SMTPPoolOptions } from "nodemailer";
import nodemailer from "nodemailer";
import {
  type MailAddress,
  type MailProvider,
  type MessageEnvelope,
  type OutgoingMessage,
  type RecipientRejection,
  RecipientsRejectedError,
  type SendResult,
} from "../ports/mail-provider.js";

/**
 * Connection settings for {@link smtpProvider}: nodemailer's pooled SMTP options.
 *
 * Either a `url` (`smtp://user:pass@host:587`, or `smtps://` for TLS from the first byte; user and
 * password percent-encoded) or `host`/`port`/`secure`/`auth`. Other keys apply where the url does
 * not set them, e.g. `tls: { rejectUnauthorized: false }` for a server with a self-signed
 * certificate, or the pool limits `maxConnections` (default 5), `maxMessages` (default 100),
 * `rateLimit`/`rateDelta`.
 */
export type SmtpProviderOptions = Omit<SMTPPoolOptions, "pool" | "disableFileAccess" | "disableUrlAccess">;

/**
 * A {@link MailProvider} that delivers through an SMTP server over pooled nodemailer connections.
 *
 * The message is built and DKIM-signed (when `message.dkim` is present) once, then handed over
 * in one SMTP transaction per envelope (`message.envelopes`; default one envelope from the From
 * address to every recipient), the transactions sharing the pool. `send` resolves with the
 * Message-ID (without angle brackets) once the server accepted at least one recipient, listing
 * in `rejected` the recipients it refused at RCPT TO or at the end of DATA (4xx and 5xx
 * replies). When it refused every recipient `send` rejects with a `RecipientsRejectedError`
 * whose message carries the server's replies (e.g. `550 5.7.1 Relaying denied`); any other
 * failure (connection, MAIL FROM refused) rejects with nodemailer's error. Content is never read
 * from files or URLs. `close()` closes the pool.
 */
export function smtpProvider(options: SmtpProviderOptions): MailProvider {
  const transporter = nodemailer.createTransport({
    ...options,
    pool: true,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  // Builds and signs messages without sending them: the bytes every envelope of a message
  // carries, so a message to 20 recipients is composed and signed once, not 20 times.
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    disableFileAccess: true,
    disableUrlAccess: true,
  });

  async function deliver(raw: Buffer, envelope: MessageEnvelope): Promise<EnvelopeOutcome> {
    try {
      const info = await transporter.sendMail({
        raw,
        envelope: { from: envelope.from, to: envelope.to },
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      const refused = (info as { rejectedErrors?: SmtpError[] }).rejectedErrors ?? [];
      return {
        accepted: envelope.to.length - refused.length,
        rejected: refused.map((error) => rejectionOf(error.recipient ?? "", error)),
        failed: [],
      };
    } catch (error) {
      return { accepted: 0, ...refusalOf(error, envelope) };
    }
  }

  return {
    async send(message: OutgoingMessage): Promise<SendResult> {
      const built = await composer.sendMail(toNodemailerMessage(message));
      const raw = built.message;
      if (!Buffer.isBuffer(raw)) throw new Error("The message was not built into a buffer");
      const id = built.messageId.replace(/^<|>$/g, "");
      const envelopes = message.envelopes?.length ? message.envelopes : [defaultEnvelope(message)];
      const outcomes = await Promise.all(envelopes.map((envelope) => deliver(raw, envelope)));
      const rejected = outcomes.flatMap((outcome) => outcome.rejected);
      const failed = outcomes.flatMap((outcome) => outcome.failed);
      if (outcomes.some((outcome) => outcome.accepted > 0)) {
        return {
          id,
          ...(rejected.length > 0 ? { rejected } : {}),
          ...(failed.length > 0
            ? { undelivered: failed.map(({ address, error }) => ({ address, reason: error.message })) }
            : {}),
        };
      }
      if (rejected.length === 0) throw failed[0]?.error ?? new Error("Message failed: no recipients");
      const words = [
        ...rejected.map((rejection) => `${rejection.address}: ${rejection.diagnostic}`),
        ...failed.map(({ address, error }) => `${address}: ${error.message}`),
      ];
      throw new RecipientsRejectedError(
        `Message failed: every recipient was refused: ${words.join("; ")}`,
        rejected,
        {
          cause: failed[0]?.error,
        },
      );
    },
    close(): void {
      transporter.close();
      composer.close();
    },
  };
}

/** What became of one envelope's recipients. */
interface EnvelopeOutcome {
  accepted: number;
  rejected: RecipientRejection[];
  failed: Array<{ address: string; error: Error }>;
}

/** The fields nodemailer sets on an SMTP error. */
interface SmtpError extends Error {
  responseCode?: number;
  response?: string;
  command?: string;
  recipient?: string;
  rejectedErrors?: SmtpError[];
}

/**
 * Sorts a failed transaction: replies to RCPT TO or to DATA are about the recipients (each
 * refused one is a bounce); anything else (no reply, a refused MAIL FROM) says nothing about
 * them, so they are only undelivered.
 */
function refusalOf(error: unknown, envelope: MessageEnvelope): Omit<EnvelopeOutcome, "accepted"> {
  const smtp = (error instanceof Error ? error : new Error(String(error))) as SmtpError;
  const aboutRecipients = smtp.command === "RCPT TO" || smtp.command === "DATA";
  if (!aboutRecipients || typeof smtp.responseCode !== "number") {
    return { rejected: [], failed: envelope.to.map((address) => ({ address, error: smtp })) };
  }
  if (smtp.command === "RCPT TO" && smtp.rejectedErrors?.length) {
    return {
      rejected: smtp.rejectedErrors.map((each) => rejectionOf(each.recipient ?? "", each)),
      failed: [],
    };
  }
  return { rejected: envelope.to.map((address) => rejectionOf(address, smtp)), failed: [] };
}

function rejectionOf(address: string, error: SmtpError): RecipientRejection {
  const reply = (error.response ?? error.message).trim();
  const smtpCode = typeof error.responseCode === "number" ? error.responseCode : null;
  // RFC 3463 status after the reply code (RFC 2034): `550 5.1.1 ...` or `550-5.1.1 ...`.
  const status = /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})(?![\d.])/.exec(reply)?.[1] ?? null;
  return { address, smtpCode, status, diagnostic: reply, permanent: smtpCode !== null && smtpCode >= 500 };
}

/** One transaction from the From address to every recipient: a message without envelopes. */
function defaultEnvelope(message: OutgoingMessage): MessageEnvelope {
  const seen = new Set<string>();
  const to: string[] = [];
  for (const { address } of [...message.to, ...message.cc, ...message.bcc]) {
    // One RCPT TO per address, however often it is listed, as nodemailer's own envelope does.
    if (seen.has(address.toLowerCase())) continue;
    seen.add(address.toLowerCase());
    to.push(address);
  }
  return { from: message.from.address, to };
}

/** The message as nodemailer composes it; Bcc recipients are only in the envelopes. */
function toNodemailerMessage(message: OutgoingMessage): SendMailOptions {
  return {
    // Address objects, not "Name <addr>" strings, so nodemailer quotes and encodes display names.
    from: toAddress(message.from),
    to: message.to.map(toAddress),
    cc: message.cc.map(toAddress),
    // No bcc: the stream transport would keep a Bcc header, and the envelopes reach them anyway.
    replyTo: message.replyTo ? toAddress(message.replyTo) : undefined,
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: { ...message.headers },
    // Content only (a Buffer): nodemailer never sees a path or href to read.
    attachments: message.attachments?.map((attachment) => ({
      filename: attachment.filename,
      content: attachment.content,
      contentType: attachment.contentType,
    })),
    dkim: message.dkim
      ? {
          domainName: message.dkim.domainName,
          keySelector: message.dkim.keySelector,
          privateKey: message.dkim.privateKey,
        }
      : undefined,
    // Repeated per message so a content value can never reopen file or URL access.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

function toAddress({ name, address }: MailAddress): Address {
  return name ? { name, address } : { address };
}
