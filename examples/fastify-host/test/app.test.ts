import type { AddressInfo } from "node:net";
import type { MailPulse } from "@mailpulse/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostApp } from "../src/app.js";

describe.each([
  { prefix: "", label: "at the root" },
  { prefix: "/mail", label: 'under prefix "/mail"' },
])("Fastify host app with MailPulse registered $label", ({ prefix }) => {
  let origin: string;
  let mailpulse: MailPulse;
  let close: () => Promise<void>;
  let organizationId: string;
  let key: string;

  beforeAll(async () => {
    const host = await createHostApp({ prefix, logger: false });
    ({ mailpulse, close } = host);
    await host.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(host.app.server.address() as AddressInfo).port}`;
    const organization = await mailpulse.organizations.create({ name: "Acme" });
    organizationId = organization.id;
    ({ key } = await mailpulse.apiKeys.create(organization.id));
  });

  afterAll(async () => {
    await close();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${origin}${prefix}${path}`, {
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
    const response = await fetch(`${origin}${prefix}/api/campaigns`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Unauthorized" });
  });

  it("answers malformed JSON itself, though the host has Fastify's JSON parser", async () => {
    const response = await api("/api/campaigns", { method: "POST", body: "{not json" });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    expect(error).toMatch(/^Invalid JSON in request body: /);
  });

  it("keeps the host's own routes working, JSON parser included", async () => {
    const health = await fetch(`${origin}/health`);
    expect(await health.json()).toEqual({ ok: true });

    const signup = await fetch(`${origin}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com" }),
    });
    expect(signup.status).toBe(201);
    expect(await signup.json()).toEqual({ received: { email: "ada@example.com" } });
  });

  it("answers unknown /api paths with MailPulse's JSON 404", async () => {
    const response = await api("/api/x");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "No route for GET /api/x" });
  });

  it("leaves other paths to the host, whose 404 answers", async () => {
    const paths = prefix === "" ? ["/nope"] : ["/nope", "/api/campaigns"];
    for (const path of paths) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: "Not Found", statusCode: 404 });
    }
  });
});
