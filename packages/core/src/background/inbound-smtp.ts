import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { Logger } from "../logger.js";
import { createInFlight } from "../util/in-flight.js";

/**
 * The inbound SMTP receiver (DESIGN: "Mail that comes back"): an `smtp-server` on the MX of the
 * return-path domains that takes bounces, complaints and unsubscribe mail. This file is the
 * transport only: limits, replies and shutdown. What a recipient is and what a message changes
 * are the inbound mail service's (`services/inbound-mail-service.ts`), handed in as
 * {@link InboundSmtpHandlers}. It never relays, never sends mail and never fetches anything: the
 * only thing it does with a message is hand its bytes to `receive`.
 */

/** Limits and address of one listening receiver; every field has a default. */
export interface InboundListenOptions {
  /** TCP port. Default 25 (binding it needs privileges: docs/operations.md). 0 picks a free port. */
  port?: number;
  /** Address to listen on. Default: every interface. */
  host?: string;
  /** The name in the greeting and the EHLO answer. Default the bounce host (`bounces.<platformDomain>`). */
  name?: string;
  /** Largest message accepted, in bytes, announced in EHLO (`SIZE`); a larger one gets 552. Default 10 MiB. */
  size?: number;
  /** Connections served at once; one more gets 421. Default 20. */
  maxConnections?: number;
  /** Recipients of one message; one more gets 452 (RFC 5321 asks for at least 100). Default 100. */
  maxRecipients?: number;
  /** Milliseconds a client may take to send one message (DATA); then the connection is closed. Default 120,000. */
  messageTimeoutMs?: number;
  /** Milliseconds a connection may stay silent; then it is closed. Default 60,000. */
  socketTimeoutMs?: number;
}

/** A listening receiver. */
export interface InboundReceiver {
  /** The port it listens on (the one picked when `port` was 0). */
  readonly port: number;
  /**
   * Stops accepting connections, closes the open ones (after at most a few seconds) and waits for
   * the messages being recorded. Idempotent.
   */
  close(): Promise<void>;
}

/** A refused envelope recipient: its SMTP reply. */
export interface RefusedRecipientReply {
  accepted: false;
  code: number;
  /** The enhanced status code, e.g. `5.7.1`. */
  status: string;
  message: string;
}

/** What the receiver calls; the inbound mail service provides them. */
export interface InboundSmtpHandlers<Accepted extends { accepted: true }> {
  /** Judges a RCPT TO; a rejection is answered 451 (try again later). */
  checkRecipient(address: string): Promise<Accepted | RefusedRecipientReply>;
  /** Records a message; resolving means stored (250), rejecting means not (451). */
  receive(delivery: {
    envelopeFrom: string;
    recipients: readonly Accepted[];
    raw: Uint8Array;
  }): Promise<unknown>;
}

/** The defaults of {@link InboundListenOptions}. */
export const inboundListenDefaults = {
  port: 25,
  size: 10 * 1024 * 1024,
  maxConnections: 20,
  maxRecipients: 100,
  messageTimeoutMs: 120_000,
  socketTimeoutMs: 60_000,
} as const;

/**
 * Bytes of a message kept in memory: what the classifier reads (reports put their machine-readable
 * parts first). The rest of a larger message is read and dropped, so memory stays bounded by this
 * times the connections.
 */
export const inboundReadBytes = 4 * 1024 * 1024;

/** Milliseconds `close()` lets open connections finish before cutting them. */
const closeTimeoutMs = 3000;

/** Starts a receiver; resolves once it listens, rejects when it cannot (a port in use, no privilege). */
export async function listenInbound<Accepted extends { accepted: true }>(
  handlers: InboundSmtpHandlers<Accepted>,
  options: InboundListenOptions & { defaultName: string; logger: Logger },
): Promise<InboundReceiver> {
  const size = options.size ?? inboundListenDefaults.size;
  const messageTimeoutMs = options.messageTimeoutMs ?? inboundListenDefaults.messageTimeoutMs;
  const logger = options.logger;
  const accepted = new WeakMap<object, Accepted[]>();
  const inFlight = createInFlight();

  const server: SMTPServer = new SMTPServer({
    name: options.name ?? options.defaultName,
    banner: "MailPulse return-path receiver: bounces, complaints and unsubscribes only",
    size,
    rejectOversized: true,
    maxClients: options.maxConnections ?? inboundListenDefaults.maxConnections,
    maxRecipients: options.maxRecipients ?? inboundListenDefaults.maxRecipients,
    socketTimeout: options.socketTimeoutMs ?? inboundListenDefaults.socketTimeoutMs,
    closeTimeout: closeTimeoutMs,
    disabledCommands: ["AUTH", "STARTTLS"],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onRcptTo(address, session, callback) {
      handlers.checkRecipient(address.address).then(
        (decision) => {
          if (!decision.accepted) {
            const refused = decision as RefusedRecipientReply;
            return callback(smtpError(refused.code, `${refused.status} ${refused.message}`));
          }
          const list = accepted.get(session.envelope) ?? [];
          list.push(decision as Accepted);
          accepted.set(session.envelope, list);
          callback();
        },
        (error: unknown) => {
          logger.error("MailPulse: the inbound receiver could not look up a recipient", error);
          callback(smtpError(451, "4.3.0 Temporary failure, try again later"));
        },
      );
    },
    onData(stream, session, callback) {
      const recipients = accepted.get(session.envelope) ?? [];
      void inFlight.run(() => readAndReceive(stream, session, recipients, callback));
    },
  });
  // A socket error of one client must not become an unhandled 'error' that ends the process.
  server.on("error", (error) => logger.error("MailPulse: inbound SMTP connection error", error));

  async function readAndReceive(
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    recipients: readonly Accepted[],
    callback: (error?: Error | null, message?: string) => void,
  ): Promise<void> {
    // A client that trickles its message forever is cut off: the idle timeout alone cannot tell.
    const timer = setTimeout(() => closeConnection(session.id), messageTimeoutMs);
    timer.unref();
    let raw: Uint8Array;
    try {
      raw = await readBounded(stream, inboundReadBytes);
    } catch {
      // The client went away mid-message; there is nobody to answer.
      clearTimeout(timer);
      return;
    }
    clearTimeout(timer);
    // Over `size`: smtp-server answers 552 itself (rejectOversized), whatever is called back.
    if (stream.sizeExceeded) return callback(smtpError(552, "5.3.4 Message too big"));
    try {
      await handlers.receive({
        envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        recipients,
        raw,
      });
      callback(null, "2.0.0 Received");
    } catch (error) {
      logger.error("MailPulse: the inbound receiver could not record a message", error);
      callback(smtpError(451, "4.3.0 Temporary failure recording the message, try again later"));
    }
  }

  function closeConnection(id: string): void {
    for (const connection of server.connections) {
      if (connection.id === id) connection.close();
    }
  }

  const wantedPort = options.port ?? inboundListenDefaults.port;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const hint =
        error.code === "EACCES"
          ? ": a port below 1024 needs a privilege (docs/operations.md: setcap, authbind or a port redirect)"
          : "";
      reject(
        new Error(`MailPulse: the inbound receiver cannot listen on port ${wantedPort}${hint}`, {
          cause: error,
        }),
      );
    };
    server.server.once("error", onError);
    server.listen(wantedPort, options.host, () => {
      server.server.off("error", onError);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    port,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await inFlight.settled();
      })();
      return closing;
    },
  };
}

/** Reads the stream to its end, keeping its first `limit` bytes. Rejects when the stream breaks. */
function readBounded(stream: SMTPServerDataStream, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    stream.on("data", (chunk: Buffer) => {
      if (kept >= limit) return;
      const part = chunk.length > limit - kept ? chunk.subarray(0, limit - kept) : chunk;
      chunks.push(part);
      kept += part.length;
    });
    stream.once("end", () => resolve(Buffer.concat(chunks, kept)));
    stream.once("error", reject);
    stream.once("close", () => {
      if (!stream.readableEnded) reject(new Error("The client closed the connection mid-message"));
    });
  });
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}
