import type { IncomingMessage } from "node:http";
import { StringDecoder } from "node:string_decoder";

/** How much of an answer's body is kept for the delivery log: 1 KiB. */
export const responseExcerptBytes = 1024;

/** The excerpt being read from an answer. */
export interface ResponseExcerpt {
  /** The first `maxBytes` of the body as UTF-8 text; resolves when they arrived, the body ended or {@link stop} was called. */
  text: Promise<string>;
  /** Stops reading now (the attempt's time is up): `text` resolves with what arrived and the socket is discarded. */
  stop(): void;
}

/**
 * Reads at most `maxBytes` of a response body, then destroys the response, and with it the
 * socket: the rest of a large (or endless) body is never read into memory, and a connection
 * left mid-body cannot be reused anyway. A body that ends in time leaves the socket to the
 * agent's keep-alive pool. Never rejects: a body cut by the network yields what arrived.
 */
export function readResponseExcerpt(
  response: IncomingMessage,
  maxBytes = responseExcerptBytes,
): ResponseExcerpt {
  const chunks: Buffer[] = [];
  let received = 0;
  let finish: () => void = () => {};
  const text = new Promise<string>((resolve) => {
    finish = () => {
      response.removeAllListeners("data");
      // StringDecoder.write holds back the bytes of a character cut at the limit, so none is garbled.
      resolve(new StringDecoder("utf8").write(Buffer.concat(chunks, received).subarray(0, maxBytes)));
    };
  });
  const stop = (): void => {
    finish();
    response.destroy();
  };
  response.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
    if (received >= maxBytes) stop();
  });
  response.on("end", finish);
  // A reset mid-body: keep what arrived. Without this listener the error would be unhandled.
  response.on("error", finish);
  response.on("aborted", finish);
  return { text, stop };
}
