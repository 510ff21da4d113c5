import { randomBytes } from "node:crypto";
import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { describe, expect, it } from "vitest";

describe("webhook secrets at rest", () => {
  it("are sealed with the encryption key in storage, and answered in plaintext through the API", async () => {
    const storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "http://mail.test",
      encryptionKey: randomBytes(32).toString("base64"),
      logger: { info: () => {}, error: () => {} },
      webhooks: { allowPrivateNetworks: true },
    });
    try {
      const organization = await mailpulse.organizations.create({ name: "Acme" });
      const webhook = await mailpulse.webhooks.create(organization.id, {
        url: "https://127.0.0.1:9/hooks",
        events: ["EMAIL_SENT"],
      });
      const stored = await storage.webhooks.find(organization.id, webhook.id);
      expect(stored?.secret).toMatch(/^mpenc:v1:/);
      expect(stored?.secret).not.toContain(webhook.secret);
      const rotated = await mailpulse.webhooks.rotateSecret(organization.id, webhook.id);
      const afterRotation = await storage.webhooks.find(organization.id, webhook.id);
      expect(afterRotation?.previousSecret).toMatch(/^mpenc:v1:/);
      expect((await mailpulse.webhooks.list(organization.id))[0]?.secret).toBe(rotated.secret);
      expect(rotated.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    } finally {
      await mailpulse.stop();
      await storage.close();
    }
  });

  it("records a delivery whose secret cannot be opened (another key) as a failed attempt, not a silent loop", async () => {
    const storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    const quiet = { info: () => {}, error: () => {} };
    const options = {
      storage,
      baseUrl: "http://mail.test",
      logger: quiet,
      webhooks: { allowPrivateNetworks: true },
    };
    const first = createMailPulse({ ...options, encryptionKey: randomBytes(32).toString("base64") });
    const second = createMailPulse({ ...options, encryptionKey: randomBytes(32).toString("base64") });
    try {
      const organization = await first.organizations.create({ name: "Acme" });
      const webhook = await first.webhooks.create(organization.id, {
        url: "https://127.0.0.1:9/hooks",
        events: ["EMAIL_SENT"],
      });
      await first.emails.send(organization.id, {
        from: "a@acme.example",
        to: "b@example.com",
        subject: "S",
        htmlContent: "<p>x</p>",
      });
      expect(await second.deliverWebhooks()).toBe(1);
      const [delivery] = (await second.webhooks.listDeliveries(organization.id, webhook.id)).data;
      expect(delivery).toMatchObject({ state: "failed", attempts: 1, lastStatus: null });
      expect(delivery?.lastError).toMatch(/^not sent: /);
    } finally {
      await first.stop();
      await second.stop();
      await storage.close();
    }
  });
});
