import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { pipeline, Readable } from "node:stream";
import { createArrivalLog } from "./arrival-log.js";
import { testReceiverCertificate, testReceiverPrivateKey } from "./fixtures/self-signed-certificate.js";
import { listenOnLoopback } from "./listen-on-loopback.js";

/** A request the receiver read to its end. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, e.g. `/hooks/mailpulse?x=1`. */
  path: string;
  /** Every header, lower-case names; repeated ones joined with `, ` as Node does. */
  headers: Record<string, string>;
  /** The body exactly as received, decoded as UTF-8: what a signature is checked against. */
  rawBody: string;
  receivedAt: Date;
  /** The client's port: two requests with the same one came over one kept-alive connection. */
  remotePort: number;
  /**
   * Resolves `true` once the whole answer was handed to the network, `false` when the client
   * closed the connection first (e.g. it stopped reading a long body).
   */
  answerFinished: Promise<boolean>;
}

/** How the receiver answers one request. */
export interface TestReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering, e.g. to exceed a client's timeout. */
  delayMs?: number;
  /** Send the status and headers at once, then wait this long before sending the body. */
  bodyDelayMs?: number;
}

/** Options of {@link startHttpsTestReceiver}. */
export interface HttpsTestReceiverOptions {
  /**
   * Chooses the answer to each request (`index` counts from 0 in arrival order). Default: 200
   * with an empty body.
   */
  respond?: (request: ReceivedRequest, index: number) => TestReceiverAnswer;
  /** The port to listen on; default an ephemeral one. Pass a closed receiver's port to restart it. */
  port?: number;
}

/** A running HTTPS test receiver. */
export interface HttpsTestReceiver {
  /** `https://127.0.0.1:PORT`; any path is accepted. */
  url: string;
  port: number;
  /** Its self-signed certificate (PEM), to trust as a CA: the transport's `ca` option. */
  ca: string;
  /** The requests received, in arrival order. */
  requests: ReceivedRequest[];
  /**
   * Resolves with all requests received so far once there are at least `count`; rejects after
   * `timeoutMs` (default 5000) or when the receiver is closed first.
   */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Stops listening and cuts the connections still open (answers still delayed are dropped). */
  close(): Promise<void>;
}

const answerChunkBytes = 16 * 1024;

function* chunksOf(body: string | Buffer): Generator<Buffer> {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  for (let offset = 0; offset < bytes.length; offset += answerChunkBytes) {
    yield bytes.subarray(offset, offset + answerChunkBytes);
  }
}

/**
 * Starts a real HTTPS server on 127.0.0.1 at an ephemeral port, with a self-signed certificate
 * valid for `127.0.0.1`, `::1`, `localhost` and `*.mailpulse.test`, that records every request
 * with its raw body, so a test can check what a webhook consumer would receive and verify its
 * signatures the way the consumer would.
 */
export async function startHttpsTestReceiver(
  options: HttpsTestReceiverOptions = {},
): Promise<HttpsTestReceiver> {
  const received = createArrivalLog<ReceivedRequest>("request");
  const requests = received.items;
  const delayedAnswers = new Set<NodeJS.Timeout>();
  const respond: NonNullable<HttpsTestReceiverOptions["respond"]> =
    options.respond ?? (() => ({ status: 200 }));

  const receive = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const answerFinished = new Promise<boolean>((resolve) => {
      response.on("close", () => resolve(response.writableFinished));
    });
    const request: ReceivedRequest = {
      method: incoming.method ?? "",
      path: incoming.url ?? "/",
      headers: Object.fromEntries(
        Object.entries(incoming.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(", ") : (value ?? ""),
        ]),
      ),
      rawBody: Buffer.concat(chunks).toString("utf8"),
      receivedAt: new Date(),
      remotePort: incoming.socket.remotePort ?? 0,
      answerFinished,
    };
    const answer = respond(request, requests.length);
    received.add(request);
    const later = (delayMs: number, action: () => void): void => {
      const timer = setTimeout(() => {
        delayedAnswers.delete(timer);
        if (!response.destroyed) action();
      }, delayMs);
      delayedAnswers.add(timer);
    };
    const sendBody = (): void => {
      // Written in chunks as the client reads, so a client that stops reading stops the answer
      // (answerFinished then says false) instead of the whole body landing in socket buffers.
      pipeline(Readable.from(chunksOf(answer.body ?? "")), response, () => {});
    };
    const send = (): void => {
      response.writeHead(answer.status, answer.headers);
      if (answer.bodyDelayMs) {
        response.flushHeaders();
        later(answer.bodyDelayMs, sendBody);
      } else {
        sendBody();
      }
    };
    if (answer.delayMs) later(answer.delayMs, send);
    else send();
  };

  const server = createServer(
    { cert: testReceiverCertificate, key: testReceiverPrivateKey },
    (incoming, response) => {
      receive(incoming, response).catch(() => response.destroy());
    },
  );
  await listenOnLoopback(server, options.port ?? 0);
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://127.0.0.1:${port}`,
    port,
    ca: testReceiverCertificate,
    requests,
    waitFor: received.waitFor,
    close() {
      received.rejectWaiters(new Error("HTTPS test receiver closed"));
      for (const timer of delayedAnswers) clearTimeout(timer);
      delayedAnswers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}
