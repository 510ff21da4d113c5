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
}

/** What the provider reports for an accepted message. */
export interface SendResult {
  /** The provider's id of the message (for SMTP: the Message-ID header, without angle brackets). */
  id: string;
}

/** A sending domain handed to a provider that manages domains itself. */
export interface ProviderDomain {
  /** The normalised domain name, e.g. `acme.com`. */
  domain: string;
  /** The key MailPulse generated and signs with; a provider that signs itself may use it. */
  dkim: DkimKey;
}

/** A delivery service. `send` rejects when the provider does not accept the message. */
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
