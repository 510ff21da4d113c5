import { createMailPulse, type MailProvider, type Storage } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
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
});
