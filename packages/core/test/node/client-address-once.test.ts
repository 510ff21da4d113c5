import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMailPulse, type MailPulse, type MailPulseOptions, memoryProvider } from "@mailpulse/core";
import { createNodeListener, type NodeListenerOptions } from "@mailpulse/core/node";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterEach, describe, expect, it } from "vitest";

// The client address is decided once per request, by one rule (`tracking.trustProxy`): the per-IP
// tracking limit counts the same address the hit is stored with. Before, the limit counted the
// peer (a load balancer's address for every client) while the stored hit read X-Forwarded-For.

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(tracking: MailPulseOptions["tracking"] = {}) {
  const storage = sqliteStorage({ filename: ":memory:" });
  await storage.migrate();
  const mailpulse = createMailPulse({
    storage,
    baseUrl: "http://mail.test",
    mailProvider: memoryProvider(),
    tracking,
    rateLimit: { trackingPerIp: { limit: 1, windowMs: 60_000 } },
    logger: { info: () => {}, error: () => {} },
  });
  closers.push(async () => {
    await mailpulse.stop();
    await storage.close();
  });
  const organization = await mailpulse.organizations.create({ name: "Acme" });
  const sent = await mailpulse.emails.send(organization.id, {
    from: "a@acme.example",
    to: "b@example.com",
    subject: "S",
    htmlContent: "<p>Hi</p>",
  });
  const storedIps = async () =>
    (await mailpulse.events.list(organization.id, { type: "EMAIL_OPENED" })).data
      .map(({ data }) => data.ip)
      .sort();
  return { mailpulse, pixelPath: new URL(sent.pixelUrl).pathname, storedIps };
}

async function listen(mailpulse: MailPulse, options?: NodeListenerOptions): Promise<string> {
  const server: Server = createServer(createNodeListener(mailpulse, options));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("one client address for the per-IP limit and the stored hit", () => {
  it("behind a trusted proxy, counts and stores each client, not the proxy (fetch handler)", async () => {
    const { mailpulse, pixelPath, storedIps } = await setup({ trustProxy: 1 });
    const hit = async (forwardedFor: string) =>
      (
        await mailpulse.handler(
          new Request(`http://mail.test${pixelPath}`, { headers: { "x-forwarded-for": forwardedFor } }),
          { clientIp: "10.0.0.2" },
        )
      ).status;
    expect(await hit("198.51.100.7")).toBe(200);
    // Another client through the same proxy has a quota of its own.
    expect(await hit("203.0.113.9")).toBe(200);
    expect(await hit("198.51.100.7")).toBe(429);
    expect(await storedIps()).toEqual(["198.51.100.0", "203.0.113.0"]);
  });

  it("does the same on the Node bridge's direct path, where a client cannot push a forged address past the hop", async () => {
    const { mailpulse, pixelPath, storedIps } = await setup({ trustProxy: 1 });
    const base = await listen(mailpulse);
    const hit = async (forwardedFor: string) =>
      (await fetch(`${base}${pixelPath}`, { headers: { "x-forwarded-for": forwardedFor } })).status;
    expect(await hit("198.51.100.7")).toBe(200);
    expect(await hit("17.1.2.3, 203.0.113.9")).toBe(200);
    expect(await hit("203.0.113.9")).toBe(429);
    expect(await storedIps()).toEqual(["198.51.100.0", "203.0.113.0"]);
  });

  it("without trustProxy ignores the header for both: every hit is the peer's", async () => {
    const { mailpulse, pixelPath, storedIps } = await setup();
    const base = await listen(mailpulse);
    const hit = async (forwardedFor: string) =>
      (await fetch(`${base}${pixelPath}`, { headers: { "x-forwarded-for": forwardedFor } })).status;
    expect(await hit("198.51.100.7")).toBe(200);
    expect(await hit("203.0.113.9")).toBe(429);
    expect(await storedIps()).toEqual(["127.0.0.0"]);
  });

  it("gives the listener's own trustProxy the same rule: the client-most valid address", async () => {
    const { mailpulse, pixelPath, storedIps } = await setup();
    const base = await listen(mailpulse, { trustProxy: true });
    const hit = async (forwardedFor: string) =>
      (await fetch(`${base}${pixelPath}`, { headers: { "x-forwarded-for": forwardedFor } })).status;
    // A garbled entry ends the chain, and a port is not part of the address.
    expect(await hit("not-an-ip, 198.51.100.7:4711, 10.0.0.3")).toBe(200);
    expect(await hit("198.51.100.7")).toBe(429);
    expect(await storedIps()).toEqual(["198.51.100.0"]);
  });
});
