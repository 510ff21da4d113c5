import { createTestMailPulse, type TestMailPulse } from "@mailpulse/storage-sqlite/testing";
import { afterEach, expect, it } from "vitest";

let kit: TestMailPulse;
afterEach(() => kit.close());

it("counts an open and a click of a campaign email", async () => {
  kit = await createTestMailPulse();
  const { organizationId } = await kit.createOrganization();
  await kit.mailpulse.emails.send(organizationId, {
    from: "news@acme.example",
    to: "ada@example.com",
    subject: "We launched",
    htmlContent: '<p><a href="https://acme.example/start">Start here</a></p>',
    campaignId: "Launch",
  });
  const message = kit.outbox.last();
  expect(message.to).toEqual([{ address: "ada@example.com" }]);
  await kit.open(message);
  const click = await kit.click(message, "https://acme.example/start");
  expect(click.headers.get("location")).toBe("https://acme.example/start");
  const stats = await kit.mailpulse.stats.global(organizationId);
  expect(stats).toMatchObject({ totalEmails: 1, totalOpens: 1, totalClicks: 1, openRate: 100 });
});
