import type { Address, SendMailOptions, SMTPPoolOptions } from "nodemailer";
import nodemailer from "nodemailer";
import type { MailAddress, MailProvider, OutgoingMessage, SendResult } from "../ports/mail-provider.js";

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
 * `send` resolves with the Message-ID (without angle brackets) once the server accepted the
 * message, and rejects with an Error whose message carries the server's reply (e.g.
 * `Message failed: 550 5.7.1 Relaying denied`) when it did not. Messages are DKIM-signed when
 * `message.dkim` is present. Content is never read from files or URLs. `close()` closes the pool.
 */
export function smtpProvider(options: SmtpProviderOptions): MailProvider {
  const transporter = nodemailer.createTransport({
    ...options,
    pool: true,
    disableFileAccess: true,
    disableUrlAccess: true,
  });

  return {
    async send(message: OutgoingMessage): Promise<SendResult> {
      const info = await transporter.sendMail(toNodemailerMessage(message));
      return { id: info.messageId.replace(/^<|>$/g, "") };
    },
    close(): void {
      transporter.close();
    },
  };
}

function toNodemailerMessage(message: OutgoingMessage): SendMailOptions {
  return {
    // Address objects, not "Name <addr>" strings, so nodemailer quotes and encodes display names.
    from: toAddress(message.from),
    to: message.to.map(toAddress),
    cc: message.cc.map(toAddress),
    bcc: message.bcc.map(toAddress),
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
