/**
 * A real SMTP client for the inbound receiver's tests: nodemailer's SMTP connection, so each
 * test picks the envelope (the null sender `<>` of bounces included) and sends raw fixtures, and
 * reads the receiver's reply codes. One connection carries several messages, as an MTA's does.
 */
import type { Readable } from "node:stream";
import SMTPConnection from "nodemailer/lib/smtp-connection";

/** The receiver's answer to one message. */
export interface SmtpReply {
  /** The reply code of the transaction's end: 250 when accepted, else the refusal (RCPT or DATA). */
  code: number;
  response: string;
}

/** An open connection to the receiver. */
export interface SmtpClient {
  send(envelope: { from: string; to: string[] }, raw: string | Buffer | Readable): Promise<SmtpReply>;
  close(): void;
}

/** Connects to 127.0.0.1:`port`. */
export async function connectSmtp(port: number): Promise<SmtpClient> {
  const connection = new SMTPConnection({
    host: "127.0.0.1",
    port,
    ignoreTLS: true,
    name: "mta.remote.example",
    socketTimeout: 60_000,
  });
  // Before the connection is up, an error (refused, reset) fails the connect; later ones fail the
  // send they interrupt, through its callback.
  await new Promise<void>((resolve, reject) => {
    connection.once("error", reject);
    connection.connect((error) => (error ? reject(error) : resolve()));
  });
  connection.on("error", () => {});
  return {
    send: (envelope, raw) =>
      new Promise((resolve) => {
        connection.send(envelope, raw, (error, info) => {
          if (error) {
            resolve({ code: error.responseCode ?? 0, response: error.response ?? error.message });
          } else {
            resolve({ code: 250, response: info.response });
          }
        });
      }),
    close: () => connection.quit(),
  };
}

/** Sends one message on a connection of its own. */
export async function sendOnce(
  port: number,
  envelope: { from: string; to: string[] },
  raw: string | Buffer,
): Promise<SmtpReply> {
  const client = await connectSmtp(port);
  try {
    return await client.send(envelope, raw);
  } finally {
    client.close();
  }
}
