/**
 * Issue 31: 100 events for organization A to a receiver answering after 15 s delayed organization
 * B's single delivery from 0.64 s to 50 s: the worker claimed batches in order of due time and
 * waited for a whole batch before claiming again. The same shape, scaled down, through the real
 * worker (`mailpulse.start()`), a real HTTPS receiver and each storage: A queues 40 events to a
 * receiver answering after 3 s, and B's one delivery must still arrive within about 2 s, while
 * A never has more than `concurrencyPerWebhook` attempts under way.
 */
import { createMailPulse, type MailPulse, memoryProvider, type Storage } from "@mailpulse/core";
import { type HttpsTestReceiver, startHttpsTestReceiver } from "@mailpulse/testing/peers";
import { afterEach, describe, expect, it } from "vitest";
import { storageFactories } from "../support/storages.js";

const quiet = { info: () => {}, error: () => {} };
const slowAnswerMs = 3000;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function send(mailpulse: MailPulse, organizationId: string, subject: string) {
  await mailpulse.emails.send(organizationId, {
    from: "news@shop.example",
    to: "ann@example.com",
    subject,
    htmlContent: "<p>Hello</p>",
  });
}

describe.each(storageFactories)("webhook delivery fairness, on $name", (factory) => {
  it("a slow receiver of one organization does not delay another organization's delivery", async () => {
    /** Attempts to A's receiver under way now, and the most seen at once. */
    let slowUnderWay = 0;
    let slowMostAtOnce = 0;
    const receiver: HttpsTestReceiver = await startHttpsTestReceiver({
      respond: (request) => {
        if (!request.path.startsWith("/slow")) return { status: 200 };
        slowUnderWay += 1;
        slowMostAtOnce = Math.max(slowMostAtOnce, slowUnderWay);
        void request.answerFinished.finally(() => {
          slowUnderWay -= 1;
        });
        return { status: 200, delayMs: slowAnswerMs };
      },
    });
    cleanups.push(() => receiver.close());
    const storage: Storage = await factory.create();
    cleanups.push(() => storage.close());
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "http://mail.test",
      logger: quiet,
      mailProvider: memoryProvider(),
      webhooks: { allowPrivateNetworks: true, ca: receiver.ca },
    });
    cleanups.push(() => mailpulse.stop());

    const slowOrganization = await mailpulse.organizations.create({ name: "A" });
    const quickOrganization = await mailpulse.organizations.create({ name: "B" });
    await mailpulse.webhooks.create(slowOrganization.id, {
      url: `${receiver.url}/slow`,
      events: ["EMAIL_SENT"],
    });
    await mailpulse.webhooks.create(quickOrganization.id, {
      url: `${receiver.url}/quick`,
      events: ["EMAIL_SENT"],
    });
    for (let index = 0; index < 40; index += 1) await send(mailpulse, slowOrganization.id, `A ${index}`);

    await mailpulse.start();
    // The worker is busy with A's receiver before B's event exists.
    await receiver.waitFor(1, 10_000);
    const queuedAt = Date.now();
    await send(mailpulse, quickOrganization.id, "B");
    let quickArrival: number | undefined;
    while (quickArrival === undefined && Date.now() - queuedAt < 20_000) {
      const quick = receiver.requests.find((request) => request.path.startsWith("/quick"));
      if (quick) quickArrival = quick.receivedAt.getTime() - queuedAt;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.log(
      `fairness on ${factory.name}: B's delivery arrived ${quickArrival} ms after it was queued; ` +
        `A had at most ${slowMostAtOnce} attempts under way`,
    );
    expect(quickArrival).toBeDefined();
    // One poll interval (1 s) plus the claim and the post, with room for a loaded machine.
    expect(quickArrival).toBeLessThan(2500);
    expect(slowMostAtOnce).toBeLessThanOrEqual(4);
    expect(slowMostAtOnce).toBeGreaterThan(0);
  }, 60_000);
});
