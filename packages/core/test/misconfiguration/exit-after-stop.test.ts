/**
 * Issue 30, trap 11: a script that stops MailPulse must exit. A child process on a SQLite file
 * migrates, starts, sends once through a real SMTP server on loopback and awaits
 * `mailpulse.stop()` without closing the storage; nothing MailPulse or the storage runs in the
 * background (the checkpoint worker, timers, pooled sockets) may keep it alive.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const script = join(import.meta.dirname, "fixtures/send-once-and-stop.ts");

let smtp: SmtpTestServer;
let folder: string;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  folder = await mkdtemp(join(tmpdir(), "mailpulse-exit-"));
});
afterAll(async () => {
  await smtp?.close();
  await rm(folder, { recursive: true, force: true });
});

describe("a one-off script on a SQLite file", () => {
  it("exits by itself after `await mailpulse.stop()`, without storage.close()", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=source", script, join(folder, "nightly.db"), smtp.url],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    let stoppedAt = 0;
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const hung = new Promise<"hung">((resolve) => {
      const watch = setInterval(() => {
        if (stoppedAt === 0 && output.includes("stopped")) stoppedAt = Date.now();
        // Loading tsx takes a while on a busy machine; the clock starts once stop() resolved.
        if (stoppedAt !== 0 && Date.now() - stoppedAt > 5000) {
          clearInterval(watch);
          resolve("hung");
        }
      }, 50);
      void exit.then(() => clearInterval(watch));
    });
    const result = await Promise.race([exit, hung]);
    if (result === "hung") child.kill("SIGKILL");
    expect(output).toContain("stopped");
    expect(result).toBe(0);
    expect(smtp.messages).toHaveLength(1);
  }, 60_000);
});
