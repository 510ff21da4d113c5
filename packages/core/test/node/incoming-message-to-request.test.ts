import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type ToWebRequestOptions, toWebRequest } from "../../src/node/incoming-message-to-request.js";
import { writeWebResponse } from "../../src/node/write-web-response.js";

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  bodyBytes: number | null;
}

let closeServer: (() => void) | undefined;
afterEach(() => closeServer?.());

/**
 * Serves one request through toWebRequest with the given options and reports what the resulting
 * Request looked like. `prepare` stands in for a host body parser that runs first.
 */
async function observe(
  send: { path: string; method?: string; headers?: Record<string, string>; body?: Buffer | string },
  options: (req: IncomingMessage) => Partial<ToWebRequestOptions> = () => ({}),
  prepare?: (req: IncomingMessage) => Promise<void>,
): Promise<Seen> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      await prepare?.(req);
      const request = toWebRequest(req, { maxBodyBytes: 1024, response: res, ...options(req) });
      const bytes = request.body === null ? null : new Uint8Array(await request.arrayBuffer());
      const seen: Seen = {
        url: request.url,
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body: bytes === null ? null : Buffer.from(bytes).toString("utf8"),
        bodyBytes: bytes?.byteLength ?? null,
      };
      await writeWebResponse(res, Response.json(seen));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closeServer = () => server.close();
  const { port } = server.address() as AddressInfo;
  // node:http rather than fetch: fetch will not send a Host header of our choosing.
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path: send.path, method: send.method ?? "GET", headers: send.headers },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve(JSON.parse(text) as Seen));
      },
    );
    req.on("error", reject);
    req.end(send.body);
  });
}

describe("toWebRequest", () => {
  it("builds the URL from the Host header and ignores X-Forwarded-Proto by default", async () => {
    const seen = await observe({
      path: "/api/x?y=1",
      headers: { host: "mail.example.com:8080", "x-forwarded-proto": "https" },
    });
    expect(seen.url).toBe("http://mail.example.com:8080/api/x?y=1");
  });

  it("believes X-Forwarded-Proto only with trustProxy, and an explicit protocol above both", async () => {
    const headers = { host: "mail.example.com", "x-forwarded-proto": "https, http" };
    expect((await observe({ path: "/api", headers }, () => ({ trustProxy: true }))).url).toBe(
      "https://mail.example.com/api",
    );
    expect(
      (await observe({ path: "/api", headers }, () => ({ trustProxy: true, protocol: "http" }))).url,
    ).toBe("http://mail.example.com/api");
  });

  it("keeps a path that starts with // a path, and falls back to localhost for a malformed Host", async () => {
    const doubled = await observe({ path: "//evil.example/api/x", headers: { host: "mail.example.com" } });
    expect(new URL(doubled.url).host).toBe("mail.example.com");
    expect(new URL(doubled.url).pathname).toBe("//evil.example/api/x");

    const smuggled = await observe({ path: "/api/x", headers: { host: "evil.example/steal?" } });
    expect(smuggled.url).toBe("http://localhost/api/x");
  });

  it("uses the url option instead of req.url", async () => {
    const seen = await observe({ path: "/mail/api/x?q=1" }, () => ({ url: "/api/x?q=1" }));
    expect(new URL(seen.url).pathname).toBe("/api/x");
  });

  it("gives GET no body, even when the client sent one", async () => {
    // node:http frames a GET body only when told its length.
    const headers = { "content-type": "text/plain", "content-length": "7" };
    const seen = await observe({ path: "/api/x", body: "ignored", headers });
    expect(seen.body).toBeNull();
  });

  it("gives a POST without Content-Length or Transfer-Encoding no body", async () => {
    expect((await observe({ path: "/api/x", method: "POST" })).body).toBeNull();
  });

  it("cuts a streamed body off one byte past the limit, so nothing more is buffered", async () => {
    const seen = await observe({
      path: "/api/x",
      method: "POST",
      headers: { "transfer-encoding": "chunked" },
      body: Buffer.alloc(300_000, 97),
    });
    expect(seen.bodyBytes).toBe(1025);
  });

  it("re-serializes a parsed body as JSON, keeping the content type and fixing the framing", async () => {
    const parse = async (req: IncomingMessage): Promise<void> => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      (req as IncomingMessage & { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    };
    const seen = await observe(
      {
        path: "/api/x",
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", "content-encoding": "identity" },
        body: '{ "a" : [1, 2] }',
      },
      (req) => ({ parsedBody: (req as IncomingMessage & { body?: unknown }).body }),
      parse,
    );
    expect(seen.body).toBe('{"a":[1,2]}');
    expect(seen.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(seen.headers["content-length"]).toBe("11");
    expect(seen.headers["content-encoding"]).toBeUndefined();
  });

  it("passes a parsed string or Buffer body on byte for byte", async () => {
    const text = await observe({ path: "/api/x", method: "POST", body: "é" }, () => ({
      parsedBody: "  raw é ",
    }));
    expect(text.body).toBe("  raw é ");
    const bytes = await observe({ path: "/api/x", method: "POST", body: "x" }, () => ({
      parsedBody: Buffer.from([0xff, 0x00, 0x41]),
    }));
    expect(bytes.bodyBytes).toBe(3);
  });

  it("gives an already consumed stream with no parsed body an empty body instead of hanging", async () => {
    const drain = async (req: IncomingMessage): Promise<void> => {
      for await (const _ of req) {
        // a host middleware read the body and kept nothing
      }
    };
    const seen = await observe({ path: "/api/x", method: "POST", body: "gone" }, () => ({}), drain);
    expect(seen.body).toBeNull();
  });
});
