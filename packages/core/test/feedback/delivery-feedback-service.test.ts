import { createTestMailPulse, type TestMailPulse } from "@mailpulse/testing";
import { afterEach, describe, expect, it } from "vitest";
import { storageFactories } from "../support/storages.js";

const day = 24 * 60 * 60 * 1000;

// The feedback service's rules (docs/deliverability.md) on both storages: what a bounce, a
// complaint and an unsubscribe do to the suppression list, the event log and the email.
for (const storage of storageFactories) {
  describe(`delivery feedback on ${storage.name}`, () => {
    let kit: TestMailPulse | undefined;
    afterEach(async () => {
      await kit?.close();
      kit = undefined;
    });

    async function setUp(options: { softBounceLimit?: number; softBounceWindowDays?: number } = {}) {
      kit = createTestMailPulse({ storage: await storage.create(), deliverability: options });
      const { organizationId } = await kit.createOrganization("Acme");
      const other = await kit.createOrganization("Other");
      const { mailpulse } = kit;
      const send = (to: string | string[] = ["Ann <Ann@Example.com>", "bob@example.com"]) =>
        mailpulse.emails.send(organizationId, {
          from: "news@shop.example",
          to,
          cc: "carol@example.com",
          subject: "Hello",
          htmlContent: "<p>Hi</p>",
        });
      const suppression = async (address: string) =>
        (await mailpulse.suppressions.list(organizationId, { address })).data[0];
      const events = async (type: string) => (await mailpulse.events.list(organizationId, { type })).data;
      return {
        kit,
        mailpulse,
        organizationId,
        otherOrganizationId: other.organizationId,
        send,
        suppression,
        events,
      };
    }

    it("suppresses at a hard bounce with its status and bounded diagnostic, once, and marks the email bounced when every `to` bounced", async () => {
      const { mailpulse, organizationId, send, suppression, events } = await setUp();
      const sent = await send();
      const bounce = {
        organizationId,
        emailId: sent.emailId,
        recipient: " ANN@example.com ",
        bounceType: "hard" as const,
        status: "5.1.1\u0000",
        diagnostic: `smtp; 550 5.1.1 <ann@example.com>: user unknown\u0000 ${"x".repeat(5000)}`,
        source: "inbound-smtp" as const,
      };
      expect(await mailpulse.deliveryFeedback.recordBounce(bounce)).toBe(true);
      expect(await mailpulse.deliveryFeedback.recordBounce(bounce)).toBe(false);
      const entry = await suppression("ann@example.com");
      expect(entry).toMatchObject({ reason: "hard_bounce", sourceEmailId: sent.emailId, status: "5.1.1" });
      expect(entry?.diagnostic).toHaveLength(1000);
      expect(entry?.diagnostic).not.toContain("\u0000");

      const bounced = await events("EMAIL_BOUNCED");
      expect(bounced).toHaveLength(1);
      expect(bounced[0]?.data).toMatchObject({
        emailTrackingId: sent.emailTrackingId,
        recipient: "ann@example.com",
        bounceType: "hard",
        status: "5.1.1",
      });
      // The cc is not a `to`: the email is bounced only once bob bounced too.
      await mailpulse.deliveryFeedback.recordBounce({ ...bounce, recipient: "carol@example.com" });
      expect((await mailpulse.emails.get(organizationId, sent.emailId)).status).toBe("sent");
      await mailpulse.deliveryFeedback.recordBounce({ ...bounce, recipient: "bob@example.com" });
      expect((await mailpulse.emails.get(organizationId, sent.emailId)).status).toBe("bounced");
    });

    it("records nothing for a recipient the email was not sent to, nor for another organization's email", async () => {
      const { mailpulse, organizationId, otherOrganizationId, send, suppression, events } = await setUp();
      const sent = await send();
      const report = {
        organizationId,
        emailId: sent.emailId,
        recipient: "mallory@example.com",
        bounceType: "hard" as const,
        status: "5.1.1",
        diagnostic: null,
        source: "sns" as const,
      };
      expect(await mailpulse.deliveryFeedback.recordBounce(report)).toBe(false);
      expect(
        await mailpulse.deliveryFeedback.recordBounce({
          ...report,
          organizationId: otherOrganizationId,
          recipient: "ann@example.com",
        }),
      ).toBe(false);
      expect(
        await mailpulse.deliveryFeedback.recordComplaint({
          organizationId: otherOrganizationId,
          emailId: sent.emailId,
          recipient: "ann@example.com",
          feedbackType: "abuse",
          source: "sns",
        }),
      ).toBe(false);
      expect(await suppression("mallory@example.com")).toBeUndefined();
      expect(await suppression("ann@example.com")).toBeUndefined();
      expect((await mailpulse.suppressions.list(otherOrganizationId)).data).toEqual([]);
      expect(await events("EMAIL_BOUNCED,EMAIL_COMPLAINED")).toEqual([]);
    });

    it("suppresses after the soft-bounce limit within the window, counting each email once, and never for delays", async () => {
      const { kit, mailpulse, organizationId, send, suppression, events } = await setUp({
        softBounceLimit: 2,
        softBounceWindowDays: 3,
      });
      const soft = (emailId: string) => ({
        organizationId,
        emailId,
        recipient: "ann@example.com",
        bounceType: "soft" as const,
        status: "4.2.2",
        diagnostic: "452 4.2.2 mailbox full",
        source: "inbound-smtp" as const,
      });
      const first = await send();
      expect(await mailpulse.deliveryFeedback.recordBounce(soft(first.emailId))).toBe(true);
      // The same email's soft bounce again, and delays of other emails: not counted.
      expect(await mailpulse.deliveryFeedback.recordBounce(soft(first.emailId))).toBe(false);
      for (let n = 0; n < 3; n++) {
        const delayed = await send();
        expect(
          await mailpulse.deliveryFeedback.recordBounce({ ...soft(delayed.emailId), bounceType: "delayed" }),
        ).toBe(true);
      }
      expect(await suppression("ann@example.com")).toBeUndefined();

      // Past the window, the first one no longer counts.
      kit.clock.advance(4 * day);
      const second = await send();
      await mailpulse.deliveryFeedback.recordBounce(soft(second.emailId));
      expect(await suppression("ann@example.com")).toBeUndefined();

      kit.clock.advance(day);
      const third = await send();
      await mailpulse.deliveryFeedback.recordBounce(soft(third.emailId));
      expect(await suppression("ann@example.com")).toMatchObject({
        reason: "hard_bounce",
        sourceEmailId: third.emailId,
        status: "4.2.2",
        diagnostic: "Soft-bounce rule: 2 soft bounces within 3 days (limit 2); last: 452 4.2.2 mailbox full",
      });
      // Soft bounces are events; delays are not.
      expect((await events("EMAIL_BOUNCED")).map((event) => event.data.bounceType)).toEqual([
        "soft",
        "soft",
        "soft",
      ]);
      expect((await mailpulse.emails.get(organizationId, third.emailId)).status).toBe("sent");
    });

    it("suppresses a complaint but not a not-spam report, and emits EMAIL_COMPLAINED", async () => {
      const { mailpulse, organizationId, send, suppression, events } = await setUp();
      const sent = await send();
      const complaint = {
        organizationId,
        emailId: sent.emailId,
        recipient: "bob@example.com",
        feedbackType: "not-spam",
        source: "inbound-smtp" as const,
      };
      expect(await mailpulse.deliveryFeedback.recordComplaint(complaint)).toBe(false);
      expect(await suppression("bob@example.com")).toBeUndefined();
      expect(await mailpulse.deliveryFeedback.recordComplaint({ ...complaint, feedbackType: "Abuse" })).toBe(
        true,
      );
      expect(await mailpulse.deliveryFeedback.recordComplaint({ ...complaint, feedbackType: "abuse" })).toBe(
        false,
      );
      expect(await suppression("bob@example.com")).toMatchObject({
        reason: "complaint",
        sourceEmailId: sent.emailId,
      });
      expect((await events("EMAIL_COMPLAINED")).map((event) => event.data)).toEqual([
        expect.objectContaining({ recipient: "bob@example.com", feedbackType: "abuse" }),
      ]);
    });

    it("counts bounces, complaints and unsubscribes in the statistics, with rates over sent emails, and shows a contact's suppression", async () => {
      const { mailpulse, organizationId } = await setUp();
      const campaignSend = (to: string) =>
        mailpulse.emails.send(organizationId, {
          from: "news@shop.example",
          to,
          subject: "Spring",
          htmlContent: "<p>Hi</p>",
          campaignId: "Spring",
        });
      const sent = await Promise.all(
        ["ann@example.com", "bob@example.com", "cy@example.com", "dee@example.com"].map(campaignSend),
      );
      const [ann, bob, cy] = sent.map((result) => ({ organizationId, emailId: result.emailId }));
      const bounce = { status: "5.1.1", diagnostic: null, source: "inbound-smtp" as const };
      await mailpulse.deliveryFeedback.recordBounce({
        ...ann!,
        recipient: "ann@example.com",
        bounceType: "hard",
        ...bounce,
      });
      await mailpulse.deliveryFeedback.recordBounce({
        ...bob!,
        recipient: "bob@example.com",
        bounceType: "soft",
        ...bounce,
      });
      await mailpulse.deliveryFeedback.recordBounce({
        ...bob!,
        recipient: "bob@example.com",
        bounceType: "delayed",
        ...bounce,
      });
      await mailpulse.deliveryFeedback.recordComplaint({
        ...cy!,
        recipient: "cy@example.com",
        feedbackType: "abuse",
        source: "sns",
      });
      await mailpulse.deliveryFeedback.recordUnsubscribe({
        ...cy!,
        recipient: "cy@example.com",
        source: "one-click",
      });

      const figures = {
        hardBounces: 1,
        softBounces: 1,
        complaints: 1,
        unsubscribes: 1,
        hardBounceRate: 25,
        softBounceRate: 25,
        complaintRate: 25,
        unsubscribeRate: 25,
      };
      // The bounced email still counts as sent.
      expect(await mailpulse.stats.global(organizationId)).toMatchObject({ totalEmails: 4, ...figures });
      const [campaign] = await mailpulse.campaigns.list(organizationId);
      expect((await mailpulse.campaigns.get(organizationId, campaign!.id)).stats).toMatchObject({
        totalEmails: 4,
        ...figures,
      });
      const period = await mailpulse.stats.campaign(organizationId, {
        campaignId: campaign!.id,
        period: "7d",
      });
      expect(period.stats).toMatchObject({ totalEmails: 4, ...figures });
      expect(period.openAndClicks.at(-1)).toMatchObject({
        emails: 4,
        hardBounces: 1,
        softBounces: 1,
        complaints: 1,
        unsubscribes: 1,
      });
      expect(await mailpulse.contacts.get(organizationId, "cy@example.com")).toMatchObject({
        hardBounces: 0,
        complaints: 1,
        unsubscribes: 1,
        suppression: { reason: "complaint", since: expect.any(String) },
      });
      expect(await mailpulse.contacts.get(organizationId, "dee@example.com")).toMatchObject({
        hardBounces: 0,
        softBounces: 0,
        suppression: null,
      });
    });

    it("unsubscribes a sent email's recipient in process: the first `to` by default, 404 and 422 otherwise", async () => {
      const { mailpulse, organizationId, otherOrganizationId, send, events } = await setUp();
      const sent = await send();
      const entry = await mailpulse.deliveryFeedback.unsubscribe(organizationId, sent.emailTrackingId);
      expect(entry).toMatchObject({
        address: "ann@example.com",
        reason: "unsubscribe",
        sourceEmailId: sent.emailId,
      });
      expect(
        await mailpulse.deliveryFeedback.unsubscribe(organizationId, sent.emailTrackingId, {
          recipient: "Carol@Example.com",
        }),
      ).toMatchObject({ address: "carol@example.com", reason: "unsubscribe" });
      // Again: the same entry, no second event.
      await mailpulse.deliveryFeedback.unsubscribe(organizationId, sent.emailTrackingId, {});
      expect((await events("CONTACT_UNSUBSCRIBED")).map((event) => event.data)).toEqual([
        expect.objectContaining({ recipient: "ann@example.com", source: "api" }),
        expect.objectContaining({ recipient: "carol@example.com", source: "api" }),
      ]);
      await expect(
        mailpulse.deliveryFeedback.unsubscribe(organizationId, sent.emailTrackingId, {
          recipient: "zed@example.com",
        }),
      ).rejects.toMatchObject({ code: "NOT_A_RECIPIENT", status: 422 });
      await expect(
        mailpulse.deliveryFeedback.unsubscribe(organizationId, "no-such-email"),
      ).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      await expect(
        mailpulse.deliveryFeedback.unsubscribe(otherOrganizationId, sent.emailTrackingId),
      ).rejects.toMatchObject({ code: "NOT_FOUND" });
      // A later unsubscribe of a bounced address keeps the first reason.
      await mailpulse.deliveryFeedback.recordBounce({
        organizationId,
        emailId: sent.emailId,
        recipient: "bob@example.com",
        bounceType: "hard",
        status: "5.1.1",
        diagnostic: null,
        source: "send-time",
      });
      expect(
        await mailpulse.deliveryFeedback.unsubscribe(organizationId, sent.emailTrackingId, {
          recipient: "bob@example.com",
        }),
      ).toMatchObject({ address: "bob@example.com", reason: "hard_bounce" });
    });
  });
}
