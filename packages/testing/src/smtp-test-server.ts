import type { AddressInfo } from "node:net";
import type { AddressObject, Headers, ParsedMail } from "mailparser";
import { simpleParser } from "mailparser";
import type { SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import { SMTPServer } from "smtp-server";
import { createArrivalLog } from "./arrival-log.js";
import { listenOnLoopback } from "./listen-on-loopback.js";

/** The SMTP envelope of a received message: what MAIL FROM and RCPT TO said, not the headers. */
export interface ReceivedEnvelope {
  /** The MAIL FROM address; an empty string for the null sender. */
  mailFrom: string;
  /** The RCPT TO addresses, in order. Bcc recipients appear here and nowhere else. */
  rcptTo: string[];
}

/** One address of a parsed address header; `name` is decoded and empty when absent. */
export interface ReceivedAddress {
  name: string;
  address: string;
}

/** A message the test server accepted, as `mailparser` read it. */
export interface ParsedReceivedMessage {
  envelope: ReceivedEnvelope;
  /** Every header, keyed by lowercase name, with `mailparser`'s structured values. */
  headers: Headers;
  from: ReceivedAddress | undefined;
  to: ReceivedAddress[];
  cc: ReceivedAddress[];
  replyTo: ReceivedAddress | undefined;
  /** Decoded Subject. */
  subject: string | undefined;
  /** The text/html part, undefined when the message has none. */
  html: string | undefined;
  /** The text/plain part (mailparser derives one from the html when the message has none). */
  text: string | undefined;
  /** The Message-ID without angle brackets, comparable with `SendResult.id`. */
  messageId: string | undefined;
  /** The message exactly as received (after DATA dot-unstuffing), e.g. to check signed headers. */
  raw: string;
}

/** How the test server refuses a recipient at RCPT TO: `<code> <message>`, e.g. `550 5.1.1 User unknown`. */
export interface RecipientRefusal {
  /** The reply code: 4xx (temporary) or 5xx (permanent). */
  code: number;
  /** The reply text after the code, enhanced status code included when wanted (`5.1.1 User unknown`). */
  message: string;
}

/** Options of {@link startSmtpTestServer}. */
export interface SmtpTestServerOptions {
  /**
   * Called at each RCPT TO with the recipient's address (as the client wrote it) and the
   * envelope's MAIL FROM; return a refusal to answer it with `<code> <message>` (the recipient
   * is then not in the envelope; a transaction whose every recipient is refused gets no DATA).
   * Refused recipients are logged in `refusedRecipients`. Default: accept every recipient.
   */
  rejectRecipient?: (address: string, mailFrom: string) => RecipientRefusal | undefined;
  /**
   * Called at the end of DATA; return a reason to reject the message with `550 <reason>`
   * (it is then not captured). Default: accept everything.
   */
  reject?: (envelope: ReceivedEnvelope) => string | undefined;
  /**
   * Called at the end of DATA, before the server answers; the answer waits for the promise it
   * returns. Holds a delivery in flight, e.g. to check what a shutdown does to it.
   */
  beforeAnswer?: (envelope: ReceivedEnvelope) => Promise<void>;
}

/** A running SMTP test server. */
export interface SmtpTestServer {
  /** `smtp://127.0.0.1:PORT`, ready for `smtpProvider({ url })`. */
  url: string;
  port: number;
  /** The accepted messages in the order their parsing finished. */
  messages: ParsedReceivedMessage[];
  /** Every RCPT TO refused through `rejectRecipient`, in order, with the reply it got. */
  refusedRecipients: Array<{ address: string; mailFrom: string; reply: string }>;
  /**
   * Resolves with all messages received so far once there are at least `count`; rejects after
   * `timeoutMs` (default 5000) or when the server is closed first.
   */
  waitForMessages(count: number, timeoutMs?: number): Promise<ParsedReceivedMessage[]>;
  /**
   * Stops the server. Close SMTP clients first: connections still open are cut after one
   * second.
   */
  close(): Promise<void>;
}

/**
 * Starts a real SMTP server on 127.0.0.1 at an ephemeral port: no TLS, no authentication. Every
 * message is parsed with `mailparser` and kept in `messages`, so tests can assert what a
 * recipient's mail server would receive.
 */
export async function startSmtpTestServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  const received = createArrivalLog<ParsedReceivedMessage>("message");
  const refusedRecipients: SmtpTestServer["refusedRecipients"] = [];

  const receive = async (stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const source = Buffer.concat(chunks);
    const envelope: ReceivedEnvelope = {
      mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
      rcptTo: session.envelope.rcptTo.map((recipient) => recipient.address),
    };
    await options.beforeAnswer?.(envelope);
    const reason = options.reject?.(envelope);
    if (reason !== undefined) throw Object.assign(new Error(reason), { responseCode: 550 });
    received.add(toReceivedMessage(envelope, await simpleParser(source), source.toString("utf8")));
  };

  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    // A reverse DNS lookup of 127.0.0.1 adds ~150 ms to every connection and tells a test nothing.
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 1_000,
    onRcptTo(address, session, callback) {
      const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
      const refusal = options.rejectRecipient?.(address.address, mailFrom);
      if (refusal === undefined) return callback();
      refusedRecipients.push({
        address: address.address,
        mailFrom,
        reply: `${refusal.code} ${refusal.message}`,
      });
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      receive(stream, session).then(() => callback(), callback);
    },
  });

  await listenOnLoopback(server, 0);
  // A client dropping its connection is reported as a server "error"; without a listener it would
  // crash the test process.
  server.on("error", () => {});

  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages: received.items,
    refusedRecipients,
    waitForMessages: received.waitFor,
    close() {
      received.rejectWaiters(new Error("SMTP test server closed"));
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function toReceivedMessage(envelope: ReceivedEnvelope, mail: ParsedMail, raw: string): ParsedReceivedMessage {
  return {
    envelope,
    headers: mail.headers,
    from: addresses(mail.from)[0],
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    replyTo: addresses(mail.replyTo)[0],
    subject: mail.subject,
    html: mail.html === false ? undefined : mail.html,
    text: mail.text,
    messageId: mail.messageId?.replace(/^<|>$/g, ""),
    raw,
  };
}

function addresses(header: AddressObject | AddressObject[] | undefined): ReceivedAddress[] {
  const objects = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return objects
    .flatMap((object) => object.value.flatMap((entry) => [entry, ...(entry.group ?? [])]))
    .flatMap((entry) => (entry.address ? [{ name: entry.name, address: entry.address }] : []));
}
