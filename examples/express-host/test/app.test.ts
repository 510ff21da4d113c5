import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { MailPulse } from "@mailpulse/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostApp } from "../src/app.js";

describe("Express host app with MailPulse mounted", () => {
  let server: Server;
  let base: string;
  let mailpulse: MailPulse;
  let close: () => Promise<void>;
  let organizationId: string;
  let key: string;

  beforeAll(async () => {
    const host = await createHostApp();
    ({ mailpulse, close } = host);
    server = host.app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const organization = await mailpulse.organizations.create({ name: "Acme" });
    organizationId = organization.id;
    ({ key } = await mailpulse.apiKeys.create(organization.id));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await close();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { "x-api-key": key, "content-type": "application/json", ...init.headers },
    });

  it("creates a campaign over HTTP and lists it", async () => {
    const created = await api("/api/campaigns", { method: "POST", body: JSON.stringify({ name: "Launch" }) });
    expect(created.status).toBe(201);
    const campaign = (await created.json()) as { id: string; name: string; createdAt: string };
    expect(campaign).toMatchObject({ name: "Launch" });

    const listed = await api("/api/campaigns");
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ campaigns: [campaign] });
    // The in-process service sees the same data as the API.
    expect(await mailpulse.campaigns.list(organizationId)).toEqual([campaign]);
  });

  it("refuses requests without a valid API key", async () => {
    const response = await fetch(`${base}/api/campaigns`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Unauthorized" });
  });

  it("keeps the host's own routes working, JSON parser included", async () => {
    const health = await fetch(`${base}/health`);
    expect(await health.json()).toEqual({ ok: true });

    const signup = await fetch(`${base}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com" }),
    });
    expect(signup.status).toBe(201);
    expect(await signup.json()).toEqual({ received: { email: "ada@example.com" } });
  });

  it("serves the host's own /api route registered after MailPulse's mount", async () => {
    const response = await fetch(`${base}/api/users/me`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: "u_1", email: "ada@example.com" });
  });

  it("answers /api paths nobody serves with the host's JSON 404", async () => {
    const response = await api("/api/x");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "No route for GET /api/x" });
  });

  it("leaves paths outside /api to the host, whose 404 answers", async () => {
    const response = await fetch(`${base}/nope`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    expect(await response.text()).toContain("Cannot GET /nope");
  });

  it("answers malformed JSON, read by MailPulse itself, in its JSON shape", async () => {
    const response = await api("/api/campaigns", { method: "POST", body: "{not json" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^Invalid JSON in request body: /);
  });

  // Issue 30, trap 7: MailPulse's routes have their own limits, the host's routes keep theirs.
  it("accepts a 144 kB newsletter (past express.json()'s 100 kB default) and answers 413 JSON past each route's limit", async () => {
    const newsletter = `<p>${"Lorem ipsum dolor sit amet. ".repeat(5200)}</p>`;
    expect(newsletter.length).toBeGreaterThan(144_000);
    const send = (htmlContent: string) =>
      api("/api/send", {
        method: "POST",
        body: JSON.stringify({
          from: "news@acme.example",
          to: "ada@example.com",
          subject: "News",
          htmlContent,
        }),
      });
    const accepted = await send(newsletter);
    expect(accepted.status).toBe(200);
    const tooLarge = await send("x".repeat(mailpulse.maxBodyBytes));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({
      error: `Request body exceeds the limit of ${mailpulse.maxBodyBytes} bytes`,
    });
    // Every other MailPulse route: 1 MiB.
    const campaign = await api("/api/campaigns", {
      method: "POST",
      body: JSON.stringify({ name: "x".repeat(1024 * 1024) }),
    });
    expect(campaign.status).toBe(413);
    expect(await campaign.json()).toEqual({ error: "Request body exceeds the limit of 1048576 bytes" });
  });

  it("keeps the host's own routes at the host parser's limit (100 kB), not MailPulse's", async () => {
    const response = await fetch(`${base}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", note: "x".repeat(200_000) }),
    });
    expect(response.status).toBe(413);
  });
});
