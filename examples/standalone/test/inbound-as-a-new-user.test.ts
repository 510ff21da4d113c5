import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StandaloneServer, startStandalone } from "./support/start-standalone.js";

/** A port free right now on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The inbound receiver as a new user turns it on (docs/operations.md): `npm start` with
 * `MAILPULSE_INBOUND_SMTP_PORT`, a complaint a mailbox provider sends to abuse@ at the
 * return-path domain, and the address on the suppression list and the report in the inbound log
 * through the API. Mail for any other domain is refused: the receiver is no relay.
 */
describe("the standalone server: inbound SMTP as a new user", () => {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-inbound-"));
  let server: StandaloneServer;
  let inboundPort: number;

  beforeAll(async () => {
    inboundPort = await freePort();
    server = await startStandalone({
      MAILPULSE_DATABASE: join(folder, "mailpulse.db"),
      MAILPULSE_PLATFORM_DOMAIN: "mailpulse.test",
      MAILPULSE_INBOUND_SMTP_PORT: String(inboundPort),
    });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  // biome-ignore lint/suspicious/noExplicitAny: loosely typed JSON answers.
  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        "x-api-key": server.apiKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  it("suppresses a complainant reported to abuse@send.<platform domain>, and refuses to relay", async () => {
    const sent = await call("POST", "/api/send", {
      from: "news@example.com",
      to: "ann@example.com",
      subject: "Spring sale",
      htmlContent: "<p>Hello</p>",
    });
    expect(sent.status).toBe(200);
    const arf = readFileSync(
      new URL("../../../packages/core/test/fixtures/returned-mail/arf-yahoo-cfl.eml", import.meta.url),
      "latin1",
    )
      .replaceAll("annoyed@yahoo.com", "ann@example.com")
      .replaceAll("Q2FtcGFpZ25FbWFpbDAwMQ", sent.json.emailTrackingId);
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: inboundPort, ignoreTLS: true });
    try {
      const info = await transport.sendMail({
        envelope: { from: "feedback@arf.mail.yahoo.com", to: ["abuse@send.mailpulse.test"] },
        raw: arf,
      });
      expect(info.response).toMatch(/^250 /);
      await expect(
        transport.sendMail({
          envelope: { from: "spammer@example.net", to: ["victim@gmail.com"] },
          raw: "Subject: relay?\r\n\r\nplease relay\r\n",
        }),
      ).rejects.toMatchObject({ responseCode: 550 });
    } finally {
      transport.close();
    }

    const suppressions = await call("GET", "/api/suppressions");
    expect(suppressions.json.data).toMatchObject([{ address: "ann@example.com", reason: "complaint" }]);
    const inbound = await call("GET", "/api/inbound-messages");
    expect(inbound.json.data).toMatchObject([
      { kind: "complaint", envelopeTo: ["abuse@send.mailpulse.test"] },
    ]);
  });
});
