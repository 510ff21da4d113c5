import { Agent, request as httpRequest } from "node:http";
import { type ServerKind, serverKinds, startTestServer, type TestServer } from "@mailpulse/testing/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Echo, EchoHandler } from "./echo-handler.js";
import { createEchoHandler } from "./echo-handler.js";

const MAX_BODY_BYTES = 1024;

/** A body that arrives chunked (no Content-Length), so only counting can catch it being too large. */
function chunkedBody(chunks: number, chunkBytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === chunks) {
        controller.close();
        return;
      }
      sent += 1;
      controller.enqueue(new Uint8Array(chunkBytes).fill(120));
    },
  });
}

/** POSTs over one keep-alive socket, so a request stuck behind an unread body would show. */
function postOnAgent(agent: Agent, url: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", agent, headers: { "content-type": "text/plain" } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    // The server may answer and drain before the whole upload is written; that is not a failure.
    req.on("error", reject);
    req.end(body);
  });
}

describe.each(serverKinds)("the %s server", (kind: ServerKind) => {
  let core: EchoHandler;
  let server: TestServer;

  beforeAll(async () => {
    core = createEchoHandler(MAX_BODY_BYTES);
    server = await startTestServer(kind, core);
  });
  afterAll(async () => {
    await server.close();
  });

  it("passes a JSON body, method, path, query and headers through unchanged", async () => {
    const payload = '{"to":"ada@example.com",  "tags":["a","b"]}';
    const response = await fetch(`${server.baseUrl}/api/echo?page=2`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "key-123" },
      body: payload,
    });
    expect(response.status).toBe(200);
    const echo = (await response.json()) as Echo;
    expect(echo.method).toBe("POST");
    expect(echo.pathname).toBe("/api/echo");
    expect(echo.search).toBe("?page=2");
    expect(echo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/echo\?page=2$/);
    expect(echo.headers["content-type"]).toBe("application/json");
    expect(echo.headers["x-api-key"]).toBe("key-123");
    expect(echo.body).toBe(payload);
    expect(echo.clientIp).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it("hands the core every method it routes", async () => {
    for (const method of ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const response = await fetch(`${server.baseUrl}/api/echo`, { method });
      expect(response.status).toBe(200);
      expect(((await response.json()) as Echo).method).toBe(method);
    }
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await fetch(`${server.baseUrl}/api/echo`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.text()).toBe("");
  });

  it("keeps several Set-Cookie headers apart", async () => {
    const response = await fetch(`${server.baseUrl}/api/cookies`);
    expect(response.headers.getSetCookie()).toEqual([
      "first=1; Path=/; HttpOnly",
      "second=2; Path=/, with a comma",
    ]);
  });

  it("streams a chunked response body to the end", async () => {
    const response = await fetch(`${server.baseUrl}/api/stream`);
    expect(await response.text()).toBe("one,two,three");
  });

  it("leaves unknown API routes, and /api itself, to the core", async () => {
    for (const path of ["/api/nope", "/api"]) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Unknown API route" });
    }
  });

  it("answers an oversized body with the core's JSON 413, whether it has a Content-Length or not", async () => {
    const sized = await fetch(`${server.baseUrl}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(MAX_BODY_BYTES + 1),
    });
    expect(sized.status).toBe(413);
    expect(await sized.json()).toEqual({ error: `The request body is larger than ${MAX_BODY_BYTES} bytes` });

    const chunked = await fetch(`${server.baseUrl}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunkedBody(64, 4096),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { error: string }).error).toMatch(/larger than/);
  });

  it("accepts a body of exactly the limit", async () => {
    const body = "y".repeat(MAX_BODY_BYTES);
    const response = await fetch(`${server.baseUrl}/api/echo`, { method: "POST", body });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Echo).body).toBe(body);
  });

  it("keeps a keep-alive connection usable after the core refused a large body unread", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await postOnAgent(
        agent,
        `${server.baseUrl}/api/early-413`,
        Buffer.alloc(2_000_000, 97),
      );
      expect(refused.status).toBe(413);
      const next = await postOnAgent(agent, `${server.baseUrl}/api/early-413`, Buffer.from("small"));
      expect(next).toEqual({ status: 200, text: '{"body":"small"}' });
    } finally {
      agent.destroy();
    }
  });

  it("aborts the core's request signal when the client disconnects, and keeps serving", async () => {
    const client = new AbortController();
    const pending = fetch(`${server.baseUrl}/api/slow`, { signal: client.signal });
    await core.slowRequestStarted;
    client.abort();
    await expect(pending).rejects.toThrow();
    await core.slowRequestAborted;

    const after = await fetch(`${server.baseUrl}/api/echo`);
    expect(after.status).toBe(200);
  });

  it("answers TRACE, which a fetch Request cannot carry, with a 4xx rather than a 500", async () => {
    // fetch refuses to send TRACE, so node:http does.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.baseUrl}/api/echo`, { method: "TRACE" }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });

  it("survives a client that disconnects halfway through an upload", async () => {
    const client = new AbortController();
    const neverEnding = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"partial":'));
      },
    });
    const pending = fetch(`${server.baseUrl}/api/echo`, {
      method: "POST",
      body: neverEnding,
      duplex: "half",
      signal: client.signal,
    } as RequestInit);
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.abort();
    await expect(pending).rejects.toThrow();

    const after = await fetch(`${server.baseUrl}/api/echo`, { method: "POST", body: "still here" });
    expect(((await after.json()) as Echo).body).toBe("still here");
  });
});

describe("startTestServer", () => {
  it("refuses a mount path for the fetch kind, which serves at the root", async () => {
    await expect(startTestServer("fetch", createEchoHandler(), { mountPath: "/mail" })).rejects.toThrow(
      /mountPath/,
    );
  });

  it.each(["express", "fastify"] as const)("mounts the %s server under mountPath", async (kind) => {
    const server = await startTestServer(kind, createEchoHandler(), { mountPath: "/mail" });
    try {
      expect(server.baseUrl).toMatch(/\/mail$/);
      const response = await fetch(`${server.baseUrl}/api/echo`);
      expect(((await response.json()) as Echo).pathname).toBe("/api/echo");
    } finally {
      await server.close();
    }
  });

  it("with the host JSON parser, Express still hands the core the JSON body", async () => {
    const server = await startTestServer("express", createEchoHandler(), { hostJsonParser: true });
    try {
      const response = await fetch(`${server.baseUrl}/api/echo`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"a": 1}',
      });
      expect(JSON.parse(((await response.json()) as Echo).body)).toEqual({ a: 1 });
    } finally {
      await server.close();
    }
  });
});

describe("the fetch server outside /api", () => {
  it("answers 404 JSON", async () => {
    const server = await startTestServer("fetch", createEchoHandler());
    try {
      for (const path of ["/", "/apiary", "/other/api/echo"]) {
        const response = await fetch(`${server.baseUrl}${path}`);
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: "Not found" });
      }
    } finally {
      await server.close();
    }
  });
});
