import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mailpulseExpress } from "@mailpulse/adapter-express";
import type { ErrorRequestHandler, Express } from "express";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import type { Echo } from "../../core/test/node/echo-handler.js";
import { createEchoHandler } from "../../core/test/node/echo-handler.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  server = undefined;
});

async function listen(app: Express): Promise<string> {
  const started = app.listen(0, "127.0.0.1");
  server = started;
  await new Promise<void>((resolve) => started.once("listening", resolve));
  return `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
}

function postJson(url: string, body: string): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
}

describe("mailpulseExpress", () => {
  it("streams the raw body to the core when no body parser ran", async () => {
    const app = express();
    app.use(mailpulseExpress(createEchoHandler()));
    const base = await listen(app);
    const raw = '{ "kept": "as sent" }';
    const echo = (await (await postJson(`${base}/api/echo`, raw)).json()) as Echo;
    expect(echo.body).toBe(raw);
  });

  it("re-serializes the body express.json() already parsed, under the original content type", async () => {
    const app = express();
    app.use(express.json());
    app.use(mailpulseExpress(createEchoHandler()));
    const base = await listen(app);
    const response = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: '{ "to": "ada@example.com", "n": 1 }',
    });
    const echo = (await response.json()) as Echo;
    expect(echo.body).toBe('{"to":"ada@example.com","n":1}');
    expect(echo.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(echo.headers["content-length"]).toBe(String(echo.body.length));
  });

  it("passes a form that express.urlencoded() parsed on as the URL-encoded form it was", async () => {
    const app = express();
    app.use(express.urlencoded({ extended: false }));
    app.use(mailpulseExpress(createEchoHandler()));
    const base = await listen(app);
    const response = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    const echo = (await response.json()) as Echo;
    expect(echo.body).toBe("List-Unsubscribe=One-Click");
    expect(echo.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  it("passes a text body that express.text() parsed on unchanged", async () => {
    const app = express();
    app.use(express.text({ type: "*/*" }));
    app.use(mailpulseExpress(createEchoHandler()));
    const base = await listen(app);
    const raw = '{"not": "re-serialized"  }';
    expect(((await (await postJson(`${base}/api/echo`, raw)).json()) as Echo).body).toBe(raw);
  });

  it("streams the body when express.json() skipped it for another content type", async () => {
    const app = express();
    app.use(express.json());
    app.use(mailpulseExpress(createEchoHandler()));
    const base = await listen(app);
    const response = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "text/csv" },
      body: "a,b\n1,2",
    });
    expect(((await response.json()) as Echo).body).toBe("a,b\n1,2");
  });

  it("serves /mail/api/... when mounted at /mail, and the core sees /api/...", async () => {
    const app = express();
    app.use("/mail", mailpulseExpress(createEchoHandler()));
    const base = await listen(app);
    const echo = (await (await fetch(`${base}/mail/api/echo?x=1`)).json()) as Echo;
    expect(echo.pathname).toBe("/api/echo");
    expect(echo.search).toBe("?x=1");
    // Not mounted at the root, so the host's 404 answers there.
    const outside = await fetch(`${base}/api/echo`);
    expect(outside.status).toBe(404);
    expect(outside.headers.get("content-type")).toMatch(/text\/html/);
  });

  it("leaves paths outside /api to the host's next routes", async () => {
    const app = express();
    app.use(express.json());
    app.use(mailpulseExpress(createEchoHandler()));
    app.post("/orders", (req, res) => {
      res.json({ host: true, received: req.body as unknown });
    });
    app.get("/apiary", (_req, res) => {
      res.send("bees");
    });
    const base = await listen(app);
    const orders = await postJson(`${base}/orders`, '{"id":7}');
    expect(await orders.json()).toEqual({ host: true, received: { id: 7 } });
    expect(await (await fetch(`${base}/apiary`)).text()).toBe("bees");
  });

  it("hands an error thrown by the handler to the host's error middleware", async () => {
    const app = express();
    app.use(mailpulseExpress(createEchoHandler()));
    const seen: unknown[] = [];
    const onError: ErrorRequestHandler = (error, _req, res, _next) => {
      seen.push(error);
      res.status(500).json({ error: "host handled it" });
    };
    app.use(onError);
    const base = await listen(app);
    const response = await fetch(`${base}/api/throw`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "host handled it" });
    expect(seen).toHaveLength(1);
    expect((seen[0] as Error).message).toBe("handler exploded");
  });

  it("keeps headers the host set earlier, such as CORS", async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader("access-control-allow-origin", "*");
      next();
    });
    app.use(mailpulseExpress(createEchoHandler()));
    const base = await listen(app);
    const response = await fetch(`${base}/api/echo`);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers an oversized body with the core's 413 when no parser runs first", async () => {
    const app = express();
    app.use(mailpulseExpress(createEchoHandler(100)));
    const base = await listen(app);
    const response = await postJson(`${base}/api/echo`, JSON.stringify({ pad: "x".repeat(200) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "The request body is larger than 100 bytes" });
  });
});
