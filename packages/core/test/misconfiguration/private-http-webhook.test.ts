/**
 * Issue 30, trap 4: a local webhook receiver works as documented. With `allowPrivateNetworks`
 * an `http://` URL to a private address is accepted and delivered to (a real plain-HTTP receiver
 * on loopback); `http://` to a public address stays refused, and so does any `http://` without it.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMailPulse, isMailPulseError, type MailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterEach, describe, expect, it } from "vitest";

const quiet = { info: () => {}, error: () => {} };
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function instance(
  allowPrivateNetworks: boolean,
): Promise<{ mailpulse: MailPulse; organizationId: string }> {
  const storage = sqliteStorage({ filename: ":memory:" });
  await storage.migrate();
  const mailpulse = createMailPulse({
    storage,
    baseUrl: "https://mail.example.com",
    logger: quiet,
    webhooks: { allowPrivateNetworks },
  });
  cleanups.push(
    () => storage.close(),
    () => mailpulse.stop(),
  );
  const organization = await mailpulse.organizations.create({ name: "Acme" });
  return { mailpulse, organizationId: organization.id };
}

async function plainReceiver(): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      bodies.push(body);
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, bodies };
}

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (isMailPulseError(error)) return error.message;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("http:// webhooks with allowPrivateNetworks", () => {
  it("accepts an http:// receiver on loopback and delivers to it", async () => {
    const { mailpulse, organizationId } = await instance(true);
    const receiver = await plainReceiver();
    const webhook = await mailpulse.webhooks.create(organizationId, {
      url: receiver.url,
      events: ["EMAIL_SENT"],
    });
    expect(webhook.url).toBe(receiver.url);
    const result = await mailpulse.webhooks.test(organizationId, webhook.id);
    expect(result).toMatchObject({ status: 200 });
    expect(receiver.bodies).toHaveLength(1);
  });

  it("still refuses http:// to a public address", async () => {
    const { mailpulse, organizationId } = await instance(true);
    const message = await refusal(() =>
      mailpulse.webhooks.create(organizationId, {
        url: "http://93.184.215.14/hooks",
        events: ["EMAIL_SENT"],
      }),
    );
    expect(message).toMatch(/must use https:\/\/ when it points to a public address \(93\.184\.215\.14\)/);
  });

  it("refuses http:// altogether without allowPrivateNetworks", async () => {
    const { mailpulse, organizationId } = await instance(false);
    const message = await refusal(() =>
      mailpulse.webhooks.create(organizationId, { url: "http://127.0.0.1:9/hooks", events: ["EMAIL_SENT"] }),
    );
    expect(message).toBe("url must use https://, not http://");
  });
});
