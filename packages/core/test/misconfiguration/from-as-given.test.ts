/**
 * Issue 30, trap 2: `From` rewritten to `send.<platformDomain>`. The spec's rule stays the default;
 * `sending: { fromAddresses: "as-given" }` sends every `From` unchanged (no Reply-To added), and
 * `start()` says which rule is in force. Mail goes through the test kit's capturing outbox.
 */
import { createTestMailPulse } from "@mailpulse/storage-sqlite/testing";
import { describe, expect, it } from "vitest";

const message = {
  from: "Ann <ann@example.com>",
  to: "bob@example.org",
  subject: "Hi",
  htmlContent: "<p>Hi</p>",
};

describe("sending.fromAddresses", () => {
  it("rewrites an unverified sender by default, and start() says how to fix the platform domain", async () => {
    const kit = await createTestMailPulse({ baseUrl: "http://localhost:3000" });
    try {
      const { organizationId } = await kit.createOrganization();
      await kit.mailpulse.emails.send(organizationId, message);
      const sent = kit.outbox.last();
      expect(sent?.from).toEqual({ name: "Ann", address: "ann@send.localhost" });
      expect(sent?.replyTo).toEqual({ address: "ann@example.com" });
      await kit.mailpulse.start();
      expect(kit.logger.lines.map((line) => line.message)).toContainEqual(
        expect.stringContaining("Set `platformDomain` (standalone: MAILPULSE_PLATFORM_DOMAIN)"),
      );
    } finally {
      await kit.close();
    }
  });

  it('sends From as given with "as-given", and start() says so', async () => {
    const kit = await createTestMailPulse({
      baseUrl: "http://localhost:3000",
      sending: { fromAddresses: "as-given" },
    });
    try {
      const { organizationId } = await kit.createOrganization();
      await kit.mailpulse.emails.send(organizationId, message);
      const sent = kit.outbox.last();
      expect(sent?.from).toEqual({ name: "Ann", address: "ann@example.com" });
      expect(sent?.replyTo).toBeUndefined();
      await kit.mailpulse.start();
      const lines = kit.logger.lines.map((line) => line.message);
      expect(lines).toContainEqual(
        expect.stringContaining('`From` addresses are sent as given (sending.fromAddresses: "as-given")'),
      );
      expect(lines.some((line) => line.includes("send.localhost"))).toBe(false);
    } finally {
      await kit.close();
    }
  });

  it("refuses an unknown rule at createMailPulse", async () => {
    await expect(createTestMailPulse({ sending: { fromAddresses: "as-is" as "as-given" } })).rejects.toThrow(
      '`sending.fromAddresses` must be "rewrite-unverified" or "as-given" (got "as-is")',
    );
  });
});
