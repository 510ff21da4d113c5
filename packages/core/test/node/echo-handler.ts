import type { MailPulseHttp, MailPulseRequestInfo } from "../../src/node/types.js";

/** What `/api/echo` answers: the request exactly as the core received it. */
export interface Echo {
  method: string;
  url: string;
  pathname: string;
  search: string;
  headers: Record<string, string>;
  body: string;
  /** The `clientIp` the adapter passed beside the request. */
  clientIp: string | null;
}

/** A toy core, plus what it observed, so tests can assert on the core's side of the bridge. */
export interface EchoHandler extends MailPulseHttp {
  /** Settles when `/api/slow` sees its request signal abort (the client went away). */
  slowRequestAborted: Promise<void>;
  /** Settles when `/api/slow` has been entered, so a test knows when to disconnect. */
  slowRequestStarted: Promise<void>;
}

const encoder = new TextEncoder();

/**
 * A stand-in for the core's HTTP surface with the same contract: answers every `/api` path (JSON
 * 404 "Unknown API route" for unknown ones), reads the body itself and answers 413 past
 * `maxBodyBytes`. Routes:
 * - `/api/echo`: the request as JSON ({@link Echo}); for HEAD it still returns a body, which the
 *   bridges must drop;
 * - `/api/cookies`: two `Set-Cookie` headers;
 * - `/api/stream`: a body written in several chunks over time;
 * - `/api/slow`: waits until the request signal aborts;
 * - `/api/early-413`: rejects by Content-Length without reading the body, as a real core may;
 * - `/api/throw`: throws, breaking the contract on purpose so tests see where errors go.
 */
export function createEchoHandler(maxBodyBytes = 1024): EchoHandler {
  let markAborted = (): void => {};
  let markStarted = (): void => {};
  const slowRequestAborted = new Promise<void>((resolve) => {
    markAborted = resolve;
  });
  const slowRequestStarted = new Promise<void>((resolve) => {
    markStarted = resolve;
  });

  const handler = async (request: Request, info?: MailPulseRequestInfo): Promise<Response> => {
    const url = new URL(request.url);
    switch (url.pathname) {
      case "/api/echo": {
        // Like the real core, a body that fails to arrive becomes a response, never a rejection.
        const body = await readBody(request, maxBodyBytes).catch(() => null);
        if (body === null) return json(400, { error: "The request body could not be read" });
        if (body === undefined)
          return json(413, { error: `The request body is larger than ${maxBodyBytes} bytes` });
        const echo: Echo = {
          method: request.method,
          url: request.url,
          pathname: url.pathname,
          search: url.search,
          headers: Object.fromEntries(request.headers),
          body,
          clientIp: info?.clientIp ?? null,
        };
        return json(200, echo);
      }
      case "/api/cookies": {
        const headers = new Headers({ "content-type": "application/json" });
        headers.append("set-cookie", "first=1; Path=/; HttpOnly");
        headers.append("set-cookie", "second=2; Path=/, with a comma");
        return new Response("{}", { status: 200, headers });
      }
      case "/api/stream":
        return new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              for (const part of ["one,", "two,", "three"]) {
                controller.enqueue(encoder.encode(part));
                await new Promise((resolve) => setTimeout(resolve, 10));
              }
              controller.close();
            },
          }),
          { headers: { "content-type": "text/plain" } },
        );
      case "/api/slow":
        markStarted();
        await new Promise<void>((resolve) => {
          if (request.signal.aborted) resolve();
          request.signal.addEventListener("abort", () => resolve(), { once: true });
          setTimeout(resolve, 10_000).unref();
        });
        if (request.signal.aborted) markAborted();
        return json(200, { aborted: request.signal.aborted });
      case "/api/early-413": {
        const length = Number(request.headers.get("content-length") ?? "0");
        if (length > maxBodyBytes) return json(413, { error: "Too large (by Content-Length)" });
        return json(200, { body: await request.text() });
      }
      case "/api/throw":
        throw new Error("handler exploded");
      default:
        return json(404, { error: "Unknown API route" });
    }
  };
  return { handler, basePath: "/api", maxBodyBytes, slowRequestAborted, slowRequestStarted };
}

/** Reads the body as text, or returns undefined as soon as it exceeds the limit. */
async function readBody(request: Request, maxBodyBytes: number): Promise<string | undefined> {
  if (request.body === null) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBodyBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function json(status: number, payload: unknown): Response {
  return new Response(JSON.stringify(payload), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
