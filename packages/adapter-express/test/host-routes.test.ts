import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mailpulseErrorHandler, mailpulseExpress } from "@mailpulse/adapter-express";
import { createMailPulse, type MailPulse, type Storage } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import type { Express } from "express";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEchoHandler } from "../../core/test/node/echo-handler.js";

// A real MailPulse on in-memory SQLite behind a real Express server: what decides these answers is
// the route table and Express's own body parser, so nothing here is a stand-in except the echo
// core of the last test, which throws on purpose.
let server: Server | undefined;
let storage: Storage;
let mailpulse: MailPulse;

beforeEach(async () => {
  storage = sqliteStorage({ filename: ":memory:" });
  await storage.migrate();
  mailpulse = createMailPulse({ storage, baseUrl: "https://app.example.com", logger: quiet });
});

afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  server = undefined;
  await mailpulse.stop();
  await storage.close();
});

const quiet = { info: () => {}, error: () => {} };

async function listen(app: Express): Promise<string> {
  const started = app.listen(0, "127.0.0.1");
  server = started;
  await new Promise<void>((resolve) => started.once("listening", resolve));
  return `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
}

function postJson(url: string, body: string): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
}

/** The README's setup: the host's parser first, MailPulse, then the host's own /api routes. */
function hostApp(options: { jsonLimit?: number } = {}): Express {
  const app = express();
  app.use(express.json({ limit: options.jsonLimit ?? mailpulse.maxBodyBytes }));
  app.use(mailpulseExpress(mailpulse));
  app.use(mailpulseErrorHandler(mailpulse));
  app.get("/api/users", (_req, res) => {
    res.json({ users: ["ada"] });
  });
  app.post("/api/users", (req, res) => {
    res.status(201).json({ created: req.body as unknown });
  });
  return app;
}

describe("mailpulseExpress beside the host's own /api routes", () => {
  it("lets a host route registered after the mount answer its /api path", async () => {
    const base = await listen(hostApp());
    const users = await fetch(`${base}/api/users`);
    expect(users.status).toBe(200);
    expect(await users.json()).toEqual({ users: ["ada"] });
    const created = await postJson(`${base}/api/users`, '{"name":"bob"}');
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ created: { name: "bob" } });
  });

  it("still answers MailPulse's own paths, a wrong method included", async () => {
    const base = await listen(hostApp());
    const campaigns = await fetch(`${base}/api/campaigns`);
    expect(campaigns.status).toBe(401);
    expect(await campaigns.json()).toEqual({ error: "Unauthorized" });
    const wrongMethod = await fetch(`${base}/api/stats`, { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD");
  });

  it("under a mount prefix, reaches the host's router mounted after it on the same prefix", async () => {
    const app = express();
    app.use("/mail", mailpulseExpress(mailpulse));
    const hostRouter = express.Router();
    hostRouter.get("/api/users", (_req, res) => {
      res.json({ users: ["ada"] });
    });
    hostRouter.delete("/api/campaigns", (_req, res) => {
      res.status(418).json({ never: "reached" });
    });
    app.use("/mail", hostRouter);
    app.use((_req, res) => {
      res.status(404).json({ host: "not found" });
    });
    const base = await listen(app);
    const users = await fetch(`${base}/mail/api/users`);
    expect(users.status).toBe(200);
    expect(await users.json()).toEqual({ users: ["ada"] });
    // MailPulse's own path stays MailPulse's, a wrong method on it included.
    expect((await fetch(`${base}/mail/api/campaigns`, { method: "DELETE" })).status).toBe(405);
    const unknown = await fetch(`${base}/mail/api/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ host: "not found" });
  });

  it("passes an /api path nobody serves to the host's 404", async () => {
    const base = await listen(hostApp());
    const response = await fetch(`${base}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Cannot GET /api/nothing-here");
  });
});

describe("mailpulseErrorHandler", () => {
  it("answers malformed JSON that express.json() rejected with MailPulse's JSON 400", async () => {
    const base = await listen(hostApp());
    const response = await postJson(`${base}/api/campaigns`, "{not json");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { error: string };
    expect(body.error).toMatch(/^Invalid JSON in request body: /);
    // The host's own /api routes get the same JSON answer rather than Express's HTML page.
    const hostRoute = await postJson(`${base}/api/users`, "{not json");
    expect(hostRoute.status).toBe(400);
    expect(((await hostRoute.json()) as { error: string }).error).toMatch(/^Invalid JSON in request body: /);
  });

  it("answers a body over the parser's limit with a JSON 413 naming the limit", async () => {
    const base = await listen(hostApp({ jsonLimit: 100 }));
    const response = await postJson(`${base}/api/send`, JSON.stringify({ htmlContent: "x".repeat(200) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Request body exceeds the limit of 100 bytes" });
  });

  it("leaves errors outside the base path to the host's error handling", async () => {
    const app = hostApp();
    app.post("/signup", (_req, res) => {
      res.json({ ok: true });
    });
    const base = await listen(app);
    const response = await postJson(`${base}/signup`, "{not json");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
  });

  it("answers a failure inside the adapter 500 JSON and reports it", async () => {
    const echo = createEchoHandler();
    const reported: string[] = [];
    const app = express();
    app.use(mailpulseExpress(echo));
    app.use(mailpulseErrorHandler(echo, { onError: (message) => reported.push(message) }));
    const base = await listen(app);
    const response = await fetch(`${base}/api/throw`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "Internal server error" });
    expect(reported).toEqual(["MailPulse: unexpected error on GET /api/throw"]);
  });

  it("works under a mount prefix when mounted beside the router", async () => {
    const app = express();
    app.use(express.json());
    app.use("/mail", mailpulseExpress(mailpulse), mailpulseErrorHandler(mailpulse));
    const base = await listen(app);
    const response = await postJson(`${base}/mail/api/campaigns`, "{not json");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^Invalid JSON in request body: /);
  });
});
