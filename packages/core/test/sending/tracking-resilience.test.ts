import { createMailPulse, memoryProvider, type Storage } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterEach, describe, expect, it } from "vitest";

// The storage is real; only its event write is made to fail, which a real database cannot be
// made to do on demand without also breaking the lookups the endpoints need.
async function setup(options: { failWrites?: boolean; ipAddresses?: "truncated" | "full" | "none" } = {}) {
  const storage = sqliteStorage({ filename: ":memory:" });
  await storage.migrate();
  const recorded: Array<{ ip: string | null }> = [];
  const tracking: Storage["tracking"] = {
    ...storage.tracking,
    async recordEvents(hits) {
      if (options.failWrites) throw new Error("disk full");
      for (const hit of hits) recorded.push({ ip: hit.event.ip });
      return storage.tracking.recordEvents(hits);
    },
  };
  const errors: string[] = [];
  const mailpulse = createMailPulse({
    storage: { ...storage, tracking },
    baseUrl: "http://mail.test",
    mailProvider: memoryProvider(),
    logger: { info: () => {}, error: (message) => errors.push(message) },
    tracking: { ipAddresses: options.ipAddresses },
  });
  const organization = await mailpulse.organizations.create({ name: "Acme" });
  const sent = await mailpulse.emails.send(organization.id, {
    from: "a@acme.example",
    to: "b@example.com",
    subject: "S",
    htmlContent: '<a href="https://example.com/x">x</a>',
  });
  return { storage, mailpulse, sent, errors, recorded };
}

let storage: Storage | undefined;
afterEach(async () => {
  await storage?.close();
});

describe("tracking endpoints when recording fails", () => {
  it("still serve the pixel and the redirect, and log the failure", async () => {
    const context = await setup({ failWrites: true });
    storage = context.storage;
    const pixel = await context.mailpulse.handler(new Request(context.sent.pixelUrl), {
      clientIp: "198.51.100.7",
    });
    expect(pixel.status).toBe(200);
    expect(pixel.headers.get("content-type")).toBe("image/gif");
    const click = await context.mailpulse.handler(new Request(context.sent.links[0]!.trackingUrl));
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://example.com/x");
    expect(context.errors).toEqual([
      expect.stringContaining("could not record open"),
      expect.stringContaining("could not record click"),
    ]);
  });
});

describe("client IP retention", () => {
  it.each([
    ["truncated", "198.51.100.7", "198.51.100.0"],
    ["truncated", "::ffff:198.51.100.7", "198.51.100.0"],
    ["truncated", "2001:db8:abcd:12::1", "2001:db8:abcd::"],
    ["full", "2001:db8:abcd:12::1", "2001:db8:abcd:12::1"],
    ["none", "198.51.100.7", null],
  ] as const)("%s keeps %s as %s", async (ipAddresses, clientIp, stored) => {
    const context = await setup({ ipAddresses });
    storage = context.storage;
    await context.mailpulse.handler(new Request(context.sent.pixelUrl), { clientIp });
    expect(context.recorded).toEqual([{ ip: stored }]);
  });
});
