import { createMailPulse, type MailProvider, type Storage, smtpProvider } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { startSmtpTestServer } from "@mailpulse/testing/peers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/** A provider that counts how often it is closed. */
function closableProvider() {
  const provider = {
    closed: 0,
    send: async () => ({ id: "unused" }),
    close() {
      provider.closed += 1;
    },
  } satisfies MailProvider & { closed: number };
  return provider;
}

describe("stop() and await using", () => {
  let storage: Storage;
  beforeEach(async () => {
    storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
  });
  afterEach(async () => {
    await storage.close();
  });

  const quiet = { info() {}, error() {} };

  it("closes the mail provider it was given, once however often it is called, and leaves the storage open", async () => {
    const provider = closableProvider();
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "http://x.test",
      mailProvider: provider,
      logger: quiet,
    });
    await Promise.all([mailpulse.stop(), mailpulse.stop()]);
    await mailpulse.stop();
    expect(provider.closed).toBe(1);
    // The storage is the host's: still open after stop().
    expect(await storage.organizations.list()).toEqual([]);
  });

  it("still closes the mail provider when closing the webhook sender fails, then rejects with that error", async () => {
    const provider = closableProvider();
    const failure = new Error("sockets would not close");
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "http://x.test",
      mailProvider: provider,
      logger: quiet,
      webhooks: {
        sender: {
          post: () => Promise.reject(new Error("never posted")),
          close() {
            throw failure;
          },
        },
      },
    });
    await expect(mailpulse.stop()).rejects.toBe(failure);
    expect(provider.closed).toBe(1);
    // Idempotent even when it failed: the same outcome, without closing anything twice.
    await expect(mailpulse.stop()).rejects.toBe(failure);
    expect(provider.closed).toBe(1);
  });

  it("stops the instance when an `await using` scope ends", async () => {
    const provider = closableProvider();
    {
      await using mailpulse = createMailPulse({
        storage,
        baseUrl: "http://x.test",
        mailProvider: provider,
        logger: quiet,
      });
      await mailpulse.organizations.create({ name: "Scoped" });
      expect(provider.closed).toBe(0);
    }
    expect(provider.closed).toBe(1);
    expect((await storage.organizations.list()).map((organization) => organization.name)).toEqual(["Scoped"]);
  });

  it("stops the domain re-check job start() runs, and does not start it again once stopped", async () => {
    let listed = 0;
    const listAll = storage.sendingDomains.listAll.bind(storage.sendingDomains);
    const counted: Storage = {
      ...storage,
      sendingDomains: {
        ...storage.sendingDomains,
        listAll: () => {
          listed += 1;
          return listAll();
        },
      },
    };
    const mailpulse = createMailPulse({
      storage: counted,
      baseUrl: "http://x.test",
      logger: quiet,
      // Polls every second: a job left running would look again within the wait below.
      domains: { recheckIntervalMs: 1000 },
    });
    await mailpulse.start();
    await mailpulse.stop(); // waits for the first re-check, which start() runs at once
    expect(listed).toBe(1);
    await mailpulse.start();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(listed).toBe(1);
  });

  it("lets sends in flight finish before it closes the SMTP pool: delivered, and stored as sent", async () => {
    // A real SMTP server on loopback that holds its answer to DATA until the test lets it go.
    let reachedData!: () => void;
    const dataReached = new Promise<void>((resolve) => {
      reachedData = resolve;
    });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const smtp = await startSmtpTestServer({
      beforeAnswer: () => {
        reachedData();
        return answered;
      },
    });
    try {
      const mailpulse = createMailPulse({
        storage,
        baseUrl: "http://x.test",
        mailProvider: smtpProvider({ url: smtp.url }),
        logger: quiet,
      });
      const organization = await mailpulse.organizations.create({ name: "Shop" });
      const sending = mailpulse.emails.send(organization.id, {
        from: "news@shop.example",
        to: "reader@example.com",
        subject: "In flight",
        htmlContent: "<p>Hello</p>",
      });
      await dataReached;

      let stopped = false;
      const stopping = mailpulse.stop().then(() => {
        stopped = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stopped).toBe(false);

      answer();
      const sent = await sending;
      await stopping;
      expect((await mailpulse.emails.get(organization.id, sent.emailId)).status).toBe("sent");
      expect(smtp.messages.map((message) => message.subject)).toEqual(["In flight"]);
    } finally {
      answer();
      await smtp.close();
    }
  });
});
