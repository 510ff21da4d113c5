/**
 * Issue 30, trap 1 (embedded): `app.use("/mail", ...)` with `baseUrl` at the root makes every
 * pixel a 404. The adapter compares its mount point with `baseUrl`'s path at the first request
 * and logs an error line naming both; a matching mount point logs nothing.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mailpulseExpress } from "@mailpulse/adapter-express";
import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { createTestLogger } from "@mailpulse/testing";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mounted(baseUrl: string, mountPath: string) {
  const storage = sqliteStorage({ filename: ":memory:" });
  await storage.migrate();
  const logger = createTestLogger();
  const mailpulse = createMailPulse({ storage, baseUrl, logger });
  const app = express();
  app.use(mountPath, mailpulseExpress(mailpulse));
  const server: Server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  cleanups.push(
    () => storage.close(),
    () => mailpulse.stop(),
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { logger, origin };
}

describe("the Express adapter's mount point", () => {
  it("logs an error line when it disagrees with baseUrl's path", async () => {
    const { logger, origin } = await mounted("https://shop.example.com", "/mail");
    expect(logger.lines).toHaveLength(0);
    await fetch(`${origin}/mail/api/t/o/unknown`);
    await fetch(`${origin}/mail/api/t/o/unknown`);
    const errors = logger.lines.filter((line) => line.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain('The Express adapter serves the API at "/mail/api"');
    expect(errors[0]?.message).toContain('puts tracking links and pixels at "/api"');
    expect(errors[0]?.message).toContain('set `baseUrl` to "https://shop.example.com/mail"');
  });

  it("says nothing when baseUrl's path is the mount point", async () => {
    const { logger, origin } = await mounted("https://shop.example.com/mail/", "/mail");
    await fetch(`${origin}/mail/api/t/o/unknown`);
    expect(logger.lines.filter((line) => line.level === "error")).toEqual([]);
  });
});
