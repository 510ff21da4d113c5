import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repositoryRoot = new URL("../../..", import.meta.url).pathname;

/** Whether something still answers at `url` (a refused connection means the server is gone). */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

describe("npm start", () => {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-signals-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("stops the server when npm receives SIGTERM, leaving no orphan listening", async () => {
    const npm = spawn("npm", ["start", "--silent"], {
      cwd: repositoryRoot,
      env: { ...process.env, PORT: "0", DATABASE_URL: "", MAILPULSE_DATABASE: join(folder, "mailpulse.db") },
    });
    let output = "";
    const baseUrl = await new Promise<string>((resolve, reject) => {
      npm.once("exit", (code) => reject(new Error(`npm exited with ${code}: ${output}`)));
      npm.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const listening = /MailPulse listening on (http:\/\/\S+)/.exec(output);
        if (listening) resolve(listening[1]!);
      });
    });
    expect(await answers(`${baseUrl}/api/t/o/x`)).toBe(true);

    const exited = new Promise((resolve) => npm.once("exit", resolve));
    npm.kill("SIGTERM");
    await exited;
    // npm is gone; the server it started must be too (give its shutdown a moment to finish).
    for (let attempt = 0; attempt < 50 && (await answers(`${baseUrl}/api/t/o/x`)); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await answers(`${baseUrl}/api/t/o/x`)).toBe(false);
  }, 30_000);

  it("closes the database when it cannot listen (port in use), leaving no write-ahead log", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as { port: number };
    const database = join(folder, "busy-port.db");
    try {
      const npm = spawn("npm", ["start", "--silent"], {
        cwd: repositoryRoot,
        env: { ...process.env, PORT: String(port), DATABASE_URL: "", MAILPULSE_DATABASE: database },
      });
      let errors = "";
      npm.stderr.on("data", (chunk: Buffer) => {
        errors += chunk.toString();
      });
      const code = await new Promise((resolve) => npm.once("exit", resolve));
      expect(code).not.toBe(0);
      expect(errors).toContain("EADDRINUSE");
      // It did open (and create) the database before failing to listen.
      expect(existsSync(database)).toBe(true);
      expect(existsSync(`${database}-wal`)).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 30_000);
});
