import { randomBytes } from "node:crypto";
import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { describe, expect, it } from "vitest";

describe("the encryptionKey notice", () => {
  async function linesAtStart(encryptionKey?: string) {
    const storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    const lines: string[] = [];
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "https://mail.example.com",
      encryptionKey,
      logger: { info: (line) => lines.push(line), error: () => {} },
    });
    await mailpulse.start();
    await mailpulse.start();
    await mailpulse.stop();
    await storage.close();
    return lines;
  }

  it("says once at start that DKIM keys are stored unencrypted without a key, and nothing with one", async () => {
    expect(await linesAtStart()).toEqual([
      "No encryptionKey: DKIM private keys and webhook secrets are stored unencrypted (docs/domains.md)",
    ]);
    expect(await linesAtStart(randomBytes(32).toString("base64"))).toEqual([]);
  });
});
