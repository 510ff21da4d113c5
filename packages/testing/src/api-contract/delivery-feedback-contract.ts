import { memoryProvider } from "@mailpulse/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticLookup } from "../static-lookup.js";
import { type ApiTestTarget, createApiClient, createTenant, type StartApiTarget } from "./api-target.js";

const lookup = createStaticLookup({ "hooks.example.com": "93.184.216.34" });

/**
 * The delivery lifecycle over real HTTP (docs/deliverability.md): bounces, complaints and
 * unsubscribes reported to `mailpulse.deliveryFeedback` show in `GET /api/events` with their
 * fields, queue deliveries for webhooks subscribed to them, and turn an email `bounced`;
 * `POST /api/emails/:emailTrackingId/unsubscribe` records a host's own unsubscribe.
 */
export function deliveryFeedbackContract(start: StartApiTarget): void {
  describe("bounces, complaints and unsubscribes", () => {
    let target: ApiTestTarget;
    let call: ReturnType<typeof createApiClient>;
    beforeAll(async () => {
      target = await start({ mailProvider: memoryProvider(), webhooks: { lookup } });
      call = createApiClient(target.baseUrl);
    });
    afterAll(async () => {
      await target?.close();
    });

    async function sendOne(key: string) {
      const sent = await call("POST", "/api/send", {
        key,
        json: {
          from: "news@acme.example",
          to: ["Ann <ann@example.com>", "bob@example.com"],
          subject: "Spring",
          htmlContent: "<p>Hi</p>",
        },
      });
      expect(sent.status).toBe(200);
      return sent.body as { emailId: string; emailTrackingId: string };
    }

    it("lists the new events with their fields, queues them for subscribers, and marks the email bounced", async () => {
      const tenant = await createTenant(target.mailpulse);
      const bounces = await call("POST", "/api/webhooks", {
        key: tenant.key,
        json: { url: "https://hooks.example.com/in", events: ["EMAIL_BOUNCED"] },
      });
      expect(bounces.status).toBe(201);
      const sent = await sendOne(tenant.key);
      const organizationId = tenant.organization.id;
      const { deliveryFeedback } = target.mailpulse;
      for (const recipient of ["ann@example.com", "bob@example.com"]) {
        await deliveryFeedback.recordBounce({
          organizationId,
          emailId: sent.emailId,
          recipient,
          bounceType: "hard",
          status: "5.1.1",
          diagnostic: "550 5.1.1 user unknown",
          source: "send-time",
        });
      }
      await deliveryFeedback.recordComplaint({
        organizationId,
        emailId: sent.emailId,
        recipient: "ann@example.com",
        feedbackType: "abuse",
        source: "sns",
      });

      const listed = await call(
        "GET",
        "/api/events?type=EMAIL_BOUNCED,EMAIL_COMPLAINED,CONTACT_UNSUBSCRIBED",
        {
          key: tenant.key,
        },
      );
      expect(listed.status).toBe(200);
      const events = listed.body.data as Array<{ id: string; type: string; data: Record<string, unknown> }>;
      expect(events.map((event) => [event.type, event.data.recipient])).toEqual([
        ["EMAIL_BOUNCED", "ann@example.com"],
        ["EMAIL_BOUNCED", "bob@example.com"],
        ["EMAIL_COMPLAINED", "ann@example.com"],
      ]);
      expect(events[0]?.data).toMatchObject({
        emailId: sent.emailId,
        emailTrackingId: sent.emailTrackingId,
        to: ["Ann <ann@example.com>", "bob@example.com"],
        bounceType: "hard",
        status: "5.1.1",
        diagnostic: "550 5.1.1 user unknown",
      });
      expect(events[0]?.data).not.toHaveProperty("userAgent");
      expect(events[2]?.data).toMatchObject({ feedbackType: "abuse" });

      const deliveries = await call("GET", `/api/webhooks/${bounces.body.id}/deliveries`, {
        key: tenant.key,
      });
      expect(deliveries.body.data.map((d: { type: string; eventId: string }) => [d.type, d.eventId])).toEqual(
        [
          ["EMAIL_BOUNCED", events[1]?.id],
          ["EMAIL_BOUNCED", events[0]?.id],
        ],
      );
      const email = await call("GET", `/api/emails/${sent.emailId}`, { key: tenant.key });
      expect(email.body).toMatchObject({ status: "bounced" });
      const suppressed = await call("GET", "/api/suppressions?reason=hard_bounce", { key: tenant.key });
      expect(suppressed.body.data.map((entry: { address: string }) => entry.address)).toEqual([
        "ann@example.com",
        "bob@example.com",
      ]);
    });

    it("unsubscribes a recipient of a sent email through POST /api/emails/:emailTrackingId/unsubscribe", async () => {
      const tenant = await createTenant(target.mailpulse);
      const other = await createTenant(target.mailpulse, "Other");
      const sent = await sendOne(tenant.key);
      const path = `/api/emails/${sent.emailTrackingId}/unsubscribe`;

      const first = await call("POST", path, { key: tenant.key, json: {} });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        address: "ann@example.com",
        reason: "unsubscribe",
        sourceEmailId: sent.emailId,
        status: null,
        diagnostic: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const named = await call("POST", path, { key: tenant.key, json: { recipient: "BOB@example.com" } });
      expect(named.body).toMatchObject({ address: "bob@example.com", reason: "unsubscribe" });
      const again = await call("POST", path, { key: tenant.key, json: {} });
      expect(again.status).toBe(200);

      const stranger = await call("POST", path, { key: tenant.key, json: { recipient: "zed@example.com" } });
      expect(stranger.status).toBe(422);
      expect(stranger.body).toEqual({ error: '"zed@example.com" is not a recipient of this email' });
      const malformed = await call("POST", path, { key: tenant.key, json: { recipient: "zed" } });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toMatch(/recipient/);
      const unknownField = await call("POST", path, {
        key: tenant.key,
        json: { address: "ann@example.com" },
      });
      expect(unknownField.status).toBe(400);
      expect(
        (await call("POST", "/api/emails/no-such-email/unsubscribe", { key: tenant.key, json: {} })).status,
      ).toBe(404);
      const foreign = await call("POST", path, { key: other.key, json: {} });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: "Email not found" });

      const events = await call("GET", "/api/events?type=CONTACT_UNSUBSCRIBED", { key: tenant.key });
      expect(
        events.body.data.map((event: { data: { recipient: string; source: string } }) => event.data),
      ).toEqual([
        expect.objectContaining({ recipient: "ann@example.com", source: "api" }),
        expect.objectContaining({ recipient: "bob@example.com", source: "api" }),
      ]);
      expect((await call("GET", "/api/events", { key: other.key })).body.data).toEqual([]);
    });
  });
}
