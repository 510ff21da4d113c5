import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { createTenant } from "@mailpulse/testing/contracts";
import { describe, expect, it } from "vitest";
import { createServer } from "../src/create-server.js";

describe("the standalone server's timeouts", () => {
  it("cuts off a client that drips its body slower than the request timeout allows", async () => {
    const storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    const mailpulse = createMailPulse({ storage, baseUrl: "http://localhost" });
    const app = await createServer({ requestTimeoutMs: 2000, headersTimeoutMs: 1000 }, mailpulse);
    await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = app.server.address() as AddressInfo;
    const { key } = await createTenant(mailpulse);
    try {
      // A valid key, so the core waits for the body; one byte every 200 ms of a promised 100 kB.
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => {
          socket.write(
            `POST /api/campaigns HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
          );
        });
        const drip = setInterval(() => socket.writable && socket.write(" "), 200);
        const chunks: Buffer[] = [];
        socket.on("data", (chunk: Buffer) => chunks.push(chunk));
        socket.on("error", reject);
        socket.on("close", () => {
          clearInterval(drip);
          resolve(Buffer.concat(chunks).toString("latin1"));
        });
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await app.close();
      await mailpulse.stop();
      await storage.close();
    }
  }, 15_000);
});
