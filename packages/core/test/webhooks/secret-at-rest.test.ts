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
});
