/**
 * Issue 30, trap 3: webhooks never deliver when `start()` is left out. Background work is started
 * by the host (docs/embedding.md says why); creating a webhook while it is not running logs a
 * warning every time, naming the fix; once started, nothing is said.
 */
import { createTestMailPulse } from "@mailpulse/storage-sqlite/testing";
import { describe, expect, it } from "vitest";

const hook = { url: "https://127.0.0.1:9/hooks", events: ["EMAIL_SENT" as const] };

describe("creating a webhook while background work is not running", () => {
  it("logs a warning each time before start(), none after it", async () => {
    const kit = await createTestMailPulse({ webhooks: { allowPrivateNetworks: true } });
    try {
      const { organizationId } = await kit.createOrganization();
      const first = await kit.mailpulse.webhooks.create(organizationId, hook);
      await kit.mailpulse.webhooks.create(organizationId, hook);
      const warnings = () =>
        kit.logger.lines.filter((line) => line.message.includes("background work is not running"));
      expect(warnings()).toHaveLength(2);
      expect(warnings()[0]?.message).toBe(
        `MailPulse: webhook ${first.id} was created, but background work is not running (mailpulse.start() was never called): ` +
          "its deliveries stay pending until `await mailpulse.start()` runs the delivery worker (or you call mailpulse.deliverWebhooks()).",
      );
      expect(warnings()[0]?.fields).toEqual({ webhookId: first.id });

      await kit.mailpulse.start();
      await kit.mailpulse.webhooks.create(organizationId, hook);
      expect(warnings()).toHaveLength(2);

      await kit.mailpulse.stop();
      await kit.mailpulse.webhooks.create(organizationId, hook);
      expect(warnings()).toHaveLength(3);
      expect(warnings()[2]?.message).toContain("(mailpulse.stop() was called)");
    } finally {
      await kit.close();
    }
  });
});
