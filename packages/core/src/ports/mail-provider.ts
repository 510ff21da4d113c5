/**
 * The mail-provider port: how MailPulse hands a finished message to a delivery service.
 *
 * Implementations: `smtpProvider` (nodemailer over SMTP) and `memoryProvider` (captures
 * messages; used by tests and by the standalone server when no SMTP URL is configured).
 */

/** An address with an optional display name, already validated (no CR/LF). */
export interface MailAddress {
  /** `local@domain`. */
  address: string;
  /** Display name, sent as `"Name" <address>`. */
  name?: string;
}

/** DKIM signing material for the sending domain, when the domain has a key. */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  /** PEM-encoded RSA private key. */
  privateKey: string;
}

/** A file attached to a message: its bytes, never a path or URL to read them from. */
export interface OutgoingAttachment {
  filename: string;
  content: Buffer;
  /** MIME type; when absent, providers guess it from the file name. */
  contentType?: string;
}

/** A message ready to go out: tracking already applied to `html` and `text`. */
export interface OutgoingMessage {
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  bcc: MailAddress[];
  replyTo?: MailAddress;
  subject: string;
  html: string;
  /** Plain-text alternative part. */
  text: string;
  /** Extra headers, e.g. `X-MailPulse-Tracking-Id`. Values never contain CR/LF. */
  headers: Record<string, string>;
  /** Files to attach, in order. Absent or empty: none. */
  attachments?: OutgoingAttachment[];
  /** Present when the sender's domain is a verified sending domain with a DKIM key. */
  dkim?: DkimKey;
  /**
   * The SMTP envelopes to send the one message in: each is its own transaction (MAIL FROM
   * `from`, RCPT TO each of `to`), so each recipient can get its own return path (VERP,
   * docs/deliverability.md). The message (headers, body, DKIM signature) is the same in every
   * one. The email service gives one envelope per recipient. Absent or empty: one envelope from
   * `from.address` to every address of `to`, `cc` and `bcc`.
   */
  envelopes?: MessageEnvelope[];
}

/** One SMTP transaction of a message: the return path and the recipients it is delivered to. */
export interface MessageEnvelope {
  /** MAIL FROM: where bounces of this delivery go, e.g. `bounces+<token>@send.acme.com`. */
  from: string;
  /** RCPT TO: bare addresses, at least one. */
  to: string[];
}

/**
 * A recipient the receiving server refused while the message was handed over (a reply to RCPT
 * TO or to the end of DATA). The send service records it as a bounce, hard or soft by the rules
 * returned mail is judged by (docs/deliverability.md, "Send-time rejections").
 */
export interface RecipientRejection {
  /** The recipient as it was given in the envelope. */
  address: string;
  /** The SMTP reply code (550, 450...); null for a provider that does not speak SMTP. */
  smtpCode: number | null;
  /** The enhanced status code of the reply (`5.1.1`), or null when it carries none. */
  status: string | null;
  /** The server's reply as it was given (e.g. `550 5.1.1 <x@y>: user unknown`). */
  diagnostic: string;
  /** Whether the refusal is final: a 5xx reply (or the provider's word). */
  permanent: boolean;
}

/** What the provider reports for an accepted message. */
export interface SendResult {
  /** The provider's id of the message (for SMTP: the Message-ID header, without angle brackets). */
  id: string;
  /**
   * The recipients the receiving server refused while others were accepted. Absent or empty:
   * every recipient was accepted. (When none was accepted `send` rejects instead, with a
   * {@link RecipientsRejectedError}.)
   */
  rejected?: RecipientRejection[];
  /**
   * Recipients whose delivery failed for a reason that is not a reply about them (a connection
   * lost mid-way, a refused MAIL FROM) while others were accepted: the message did not reach
   * them and nothing is known of the address. Absent or empty: none.
   */
  undelivered?: Array<{ address: string; reason: string }>;
}

/**
 * What `send` rejects with when the receiving server refused every recipient (at RCPT TO or at
 * the end of DATA): the message went nowhere, and each refusal is a bounce of its recipient.
 * `message` carries the server's replies, e.g. `550 5.1.1 User unknown`.
 */
export class RecipientsRejectedError extends Error {
  /** Each refused recipient, in envelope order. */
  readonly rejected: RecipientRejection[];
  constructor(message: string, rejected: RecipientRejection[], options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RecipientsRejectedError";
    this.rejected = rejected;
  }
}

/** A sending domain handed to a provider that manages domains itself. */
export interface ProviderDomain {
  /** The normalised domain name, e.g. `acme.com`. */
  domain: string;
  /** The key MailPulse generated and signs with; a provider that signs itself may use it. */
  dkim: DkimKey;
}

/**
 * A delivery service. `send` rejects when the provider does not accept the message for any
 * recipient: with a {@link RecipientsRejectedError} when the receiving server refused each of
 * them, with any other error otherwise.
 */
export interface MailProvider {
  /**
   * `true` for a provider whose messages never leave the process (`memoryProvider`, the test
   * kit's outbox): nobody outside can follow their links, so `createMailPulse` does not refuse a
   * loopback or private `baseUrl` for it. Default: absent, a provider that delivers real mail.
   */
  readonly capturesOnly?: boolean;
  /** Hands one message to the provider; resolves once the provider accepted it. */
  send(message: OutgoingMessage): Promise<SendResult>;
  /**
   * Optional domain hook, called before a sending domain is stored: rejecting (with a message
   * for the organization) refuses the domain, answered 400 with that message.
   */
  createDomain?(domain: ProviderDomain): Promise<void>;
  /** Optional domain hook, called after a sending domain was deleted; a rejection is only logged. */
  deleteDomain?(domain: string): Promise<void>;
  /** Releases pooled connections. Optional; called by `mailpulse.stop()`. */
  close?(): Promise<void> | void;
}
