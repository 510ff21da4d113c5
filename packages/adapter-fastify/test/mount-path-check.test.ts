/**
 * Issue 30, trap 1 (embedded): a Fastify `prefix` that disagrees with `baseUrl`'s path makes every
 * pixel a 404. The plugin checks at registration and logs one error line naming both.
 */
import { mailpulseFastify } from "@mailpulse/adapter-fastify";
import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { createTestLogger } from "@mailpulse/testing";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";

async function registered(baseUrl: string, prefix: string) {
  const storage = sqliteStorage({ filename: ":memory:" });
  await storage.migrate();
  const logger = createTestLogger();
  const mailpulse = createMailPulse({ storage, baseUrl, logger });
  const app = Fastify();
  await app.register(mailpulseFastify, { mailpulse, prefix });
  await app.ready();
  await app.close();
  await mailpulse.stop();
  await storage.close();
  return logger.lines.filter((line) => line.level === "error").map((line) => line.message);
}

describe("the Fastify plugin's prefix", () => {
  it("logs an error line at registration when it disagrees with baseUrl's path", async () => {
    const errors = await registered("https://mail.example.com", "/mail");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('The Fastify plugin serves the API at "/mail/api"');
    expect(errors[0]).toContain('Mount the adapter at "/"');
  });

  it("logs when baseUrl has a path the plugin is not registered under", async () => {
    const errors = await registered("https://example.com/mail", "");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('serves the API at "/api"');
    expect(errors[0]).toContain('puts tracking links and pixels at "/mail/api"');
  });

  it("says nothing when they agree", async () => {
    expect(await registered("https://example.com/mail", "/mail")).toEqual([]);
    expect(await registered("https://mail.example.com", "")).toEqual([]);
  });
});
