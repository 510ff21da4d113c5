import { createTestMailPulse, type TestMailPulse, type TestMailPulseOptions } from "@mailpulse/testing";
import { afterEach, describe, expect, it } from "vitest";
// The same storages every suite of the house runs on (SQLite always, PostgreSQL with DATABASE_URL).
import { storageFactories } from "../../core/test/support/storages.js";

for (const storageFactory of storageFactories) {
  describe(`the host apps' test kit on ${storageFactory.name}`, () => {
    let kit: TestMailPulse | undefined;
    afterEach(async () => {
      await kit?.close();
      kit = undefined;
    });
    const start = async (options: Omit<TestMailPulseOptions, "storage"> = {}) => {
      kit = createTestMailPulse({ ...options, storage: await storageFactory.create() });
      return kit;
    };
    const html =
      '<p><a href="https://acme.example/a">A</a> and <a href="https://acme.example/b?x=1&amp;y=2">B</a></p>';
    /** The send of `html` to `to` that most tests make. */
    const sendingTo = (to: string) => ({ from: "a@acme.example", to, subject: "Hi", htmlContent: html });
    /** A new kit's organization, one message sent to ada@example.com, and the message as captured. */
    const sendOne = async () => {
      const started = await start();
      const { organizationId } = await started.createOrganization();
      await started.mailpulse.emails.send(organizationId, sendingTo("ada@example.com"));
      return { ...started, organizationId, message: started.outbox.last() };
    };

    it("captures each message with its tracking id, pixel and links, in the order sent", async () => {
      const { mailpulse, outbox, clock, createOrganization } = await start({ now: "2026-03-01T09:00:00Z" });
      const { organizationId } = await createOrganization();
      // One after the other: two sends at once reach the provider in either order.
      const first = await mailpulse.emails.send(organizationId, sendingTo("ada@example.com"));
      const second = await mailpulse.emails.send(organizationId, sendingTo("bob@example.com"));
      expect(outbox.messages.map((message) => message.trackingId)).toEqual([
        first.emailTrackingId,
        second.emailTrackingId,
      ]);
      const message = outbox.to("BOB@example.com")[0]!;
      expect(message.pixelUrl).toBe(second.pixelUrl);
      expect(message.links).toEqual(second.links);
      expect(message.links.map((link) => link.originalUrl)).toEqual([
        "https://acme.example/a",
        "https://acme.example/b?x=1&y=2",
      ]);
      expect(message.acceptedAt).toEqual(clock.now());
      expect(message.id).toBe(second.id);
    });

    it("opens and clicks through the tracking endpoints, counted at once on the shared clock", async () => {
      const { mailpulse, outbox, clock, open, click, createOrganization } = await start();
      const { organizationId } = await createOrganization();
      await mailpulse.emails.send(organizationId, {
        from: "a@acme.example",
        to: "ada@example.com",
        subject: "Hi",
        htmlContent: html,
        campaignId: "Spring",
      });
      const message = outbox.last();
      clock.advance(60 * 60 * 1000);
      const pixel = await open(message);
      expect(pixel.headers.get("content-type")).toBe("image/gif");
      expect((await click(message, 1)).headers.get("location")).toBe("https://acme.example/b?x=1&y=2");
      const [campaign] = await mailpulse.campaigns.list(organizationId);
      const detail = await mailpulse.campaigns.get(organizationId, campaign!.id);
      expect(detail.stats).toMatchObject({ totalEmails: 1, totalOpens: 1, totalClicks: 1 });
      expect(detail.links).toEqual(
        expect.arrayContaining([{ url: "https://acme.example/b?x=1&y=2", clicks: 1 }]),
      );
      const contact = await mailpulse.contacts.get(organizationId, "ada@example.com");
      expect(contact.lastActivity).toBe(clock.now().toISOString());
    });

    it("opens and clicks as a reader unless told to be someone else, judged like any hit", async () => {
      const { mailpulse, clock, open, click, organizationId, message } = await sendOne();
      clock.advance(10 * 60 * 1000);
      await open(message);
      clock.advance(30 * 1000);
      await click(message);
      // Half a minute later, Apple's privacy proxy from an address of the test's choosing, and a
      // click from that address at the same moment (a scanner's timing, whatever its browser).
      clock.advance(30 * 1000);
      await open(message, { userAgent: "Mozilla/5.0", clientIp: "203.0.113.7" });
      await click(message, 1, { clientIp: "203.0.113.7" });
      const { data } = await mailpulse.events.list(organizationId, {});
      const hits = data
        .filter((event) => event.type !== "EMAIL_SENT")
        .map((event) => ({ type: event.type, ...event.data }));
      expect(hits).toEqual([
        expect.objectContaining({
          type: "EMAIL_OPENED",
          machine: false,
          userAgent: expect.stringContaining("Thunderbird"),
        }),
        expect.objectContaining({
          type: "EMAIL_CLICKED",
          machine: false,
          userAgent: expect.stringContaining("Chrome"),
        }),
        expect.objectContaining({
          type: "EMAIL_OPENED",
          machine: true,
          ip: "203.0.113.0",
          userAgent: "Mozilla/5.0",
        }),
        expect.objectContaining({
          type: "EMAIL_CLICKED",
          machine: true,
          userAgent: expect.stringContaining("Chrome"),
        }),
      ]);
      expect(await mailpulse.stats.global(organizationId)).toMatchObject({
        totalOpens: 2,
        totalClicks: 2,
        human: { totalOpens: 1, totalClicks: 1 },
      });
    });

    it("resolves once the verdicts a hit revises are stored", async () => {
      const { mailpulse, clock, click, organizationId, message } = await sendOne();
      clock.advance(10 * 60 * 1000);
      await click(message, 0);
      // A second link in the same second: a burst, which turns the first click into a machine's.
      await click(message, 1);
      const { data } = await mailpulse.events.list(organizationId, { type: "EMAIL_CLICKED" });
      expect(data.map((event) => event.data.machine)).toEqual([true, true]);
      expect(await mailpulse.stats.global(organizationId)).toMatchObject({ human: { totalClicks: 0 } });
    });

    it("says which links a message has when asked for another, and when it has no pixel", async () => {
      const { mailpulse, outbox, click, open, createOrganization } = await start();
      const { organizationId } = await createOrganization();
      await mailpulse.emails.send(organizationId, {
        from: "a@acme.example",
        to: "ada@example.com",
        subject: "Hi",
        htmlContent: html,
        tracking: { opens: false },
      });
      const message = outbox.last();
      expect(() => click(message, "https://elsewhere.example/")).toThrow(
        'This message has no tracked link "https://elsewhere.example/" (its links: https://acme.example/a, https://acme.example/b?x=1&y=2)',
      );
      expect(() => open(message)).toThrow(/no open pixel/);
    });

    it("serves tracking under a base URL with a path", async () => {
      const { mailpulse, outbox, open, createOrganization } = await start({
        baseUrl: "https://app.example/mail/",
      });
      const { organizationId } = await createOrganization();
      await mailpulse.emails.send(organizationId, {
        from: "a@acme.example",
        to: "ada@example.com",
        subject: "Hi",
        htmlContent: html,
      });
      expect(outbox.last().pixelUrl).toMatch(/^https:\/\/app\.example\/mail\/api\/t\/o\//);
      expect((await open(outbox.last())).status).toBe(200);
      expect(await mailpulse.stats.global(organizationId)).toMatchObject({ totalOpens: 1 });
    });

    it("refuses messages when told to, and keeps the failure's log line instead of printing it", async () => {
      const { mailpulse, outbox, logger, createOrganization } = await start({
        fail: (message) =>
          message.to[0]?.address === "gone@example.com" ? new Error("550 no such user") : undefined,
      });
      const { organizationId } = await createOrganization();
      await expect(
        mailpulse.emails.send(organizationId, {
          from: "a@acme.example",
          to: "gone@example.com",
          subject: "Hi",
          htmlContent: html,
        }),
      ).rejects.toMatchObject({ code: "DELIVERY_FAILED" });
      expect(outbox.messages).toEqual([]);
      expect(() => outbox.last()).toThrow("The test outbox is empty: nothing was sent");
      // Errors only: a storage without instance secrets also says, once, how return paths are signed.
      expect(logger.lines.filter((line) => line.level === "error")).toEqual([
        expect.objectContaining({
          level: "error",
          message: expect.stringMatching(/to gone@example.com failed: 550 no such user$/),
        }),
      ]);
    });

    it("gives an organization an API key that the HTTP API accepts", async () => {
      const { mailpulse, createOrganization } = await start();
      const { apiKey } = await createOrganization("Acme");
      const response = await mailpulse.handler(
        new Request("https://mailpulse.test/api/campaigns", { headers: { "x-api-key": apiKey } }),
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ campaigns: [] });
    });
  });
}
