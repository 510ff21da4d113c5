import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { type ApiTestTarget, createTenant } from "./api-target.js";

/**
 * Writes a request head and the first bytes of a body it promises to be much longer, and never
 * sends the rest (a client dripping its body); resolves with everything the server sent once the
 * server closes the connection. A server that keeps waiting for the body leaves this pending, so
 * the test fails by its timeout.
 */
function answerToUnfinishedBody(baseUrl: string, head: string): Promise<string> {
  const { hostname, port, pathname } = new URL(baseUrl);
  const path = pathname.replace(/\/$/, "");
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(head.replace("PATH", path));
      socket.write("{");
    });
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
  });
}

/** Connections of requests whose body MailPulse will not read. */
export function connectionContract(target: () => ApiTestTarget): void {
  describe("bodies it will not read", () => {
    it("answers 401 before the body and closes the connection instead of waiting for it", async () => {
      const answer = await answerToUnfinishedBody(
        target().baseUrl,
        "POST PATH/api/campaigns HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n",
      );
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer.toLowerCase()).toContain("connection: close");
    });

    it("answers 413 for a declared length past the limit and closes the connection", async () => {
      const { key } = await createTenant(target().mailpulse);
      const answer = await answerToUnfinishedBody(
        target().baseUrl,
        `POST PATH/api/campaigns HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.toLowerCase()).toContain("connection: close");
    });
  });
}
