/**
 * `kill -9` in the middle of a pixel load (issue 7, case 6). With `acknowledge: "after-commit"`
 * an answered hit is a committed hit, so after SIGKILL the reopened SQLite file must hold at least
 * as many opens as the 200s the client read in full. The same run with `"immediately"` follows
 * for contrast: there a crash may lose the hits still queued, up to `tracking.queueSize`.
 *
 * The server (Fastify adapter, SQLite file with BENCH_EMAILS sent emails) runs on the server core,
 * crash/client.ts on the load core with BENCH_CRASH_CONNECTIONS keep-alive connections (default
 * 50); the server is killed BENCH_CRASH_AFTER seconds into the load (default 3).
 *
 * Run: npm run bench:crash
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { count } from "./lib/format.js";
import { isMain } from "./lib/is-main.js";
import { printMachine } from "./lib/machine.js";
import { nodeArguments } from "./lib/node-child.js";
import { loadCore, pinned } from "./lib/pin.js";
import { readBenchSettings } from "./lib/settings.js";
import { createTempFolder } from "./lib/temp-folder.js";
import { startServer } from "./server/start-server.js";
import { seedSqliteDatabase } from "./tracking/bench-database.js";
import { countRecorded } from "./tracking/recorded.js";

/** One crash run. */
export interface CrashRow {
  acknowledge: "after-commit" | "immediately";
  /** 200s the client read in full before the kill. */
  answered: number;
  /** Open events in the database reopened after the kill. */
  recorded: number;
  /** Sum of the emails' open counters (must equal `recorded`: one transaction). */
  counted: number;
  verdict: string;
}

interface ClientCounts {
  ok: number;
  otherStatus: number;
  errors: number;
}

function seconds(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

/** Runs the client against `origin` until it stops; resolves to its counts. */
function startClient(origin: string, pathsFile: string, connections: number) {
  const entry = new URL("./crash/client.ts", import.meta.url);
  const [command, args] = pinned(
    loadCore,
    process.execPath,
    nodeArguments(entry, origin, pathsFile, String(connections)),
  );
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const finished = new Promise<ClientCounts>((resolve, reject) => {
    child.once("exit", () => {
      const line = output.split("\n").find((candidate) => candidate.startsWith("{"));
      if (line) resolve(JSON.parse(line) as ClientCounts);
      else reject(new Error(`crash client printed no counts: ${output}`));
    });
  });
  return { finished, stop: () => child.kill("SIGTERM") };
}

/** Runs both acknowledge modes; logs each and returns the rows. */
export async function run(log: (line: string) => void = console.log): Promise<CrashRow[]> {
  const settings = readBenchSettings();
  const killAfter = seconds("BENCH_CRASH_AFTER", 3);
  const connections = Math.round(seconds("BENCH_CRASH_CONNECTIONS", 50));
  const folder = createTempFolder();
  const rows: CrashRow[] = [];
  try {
    const database = await seedSqliteDatabase(folder, settings.emails);
    const pathsFile = folder.file("crash-paths.txt");
    writeFileSync(pathsFile, `${database.seeded.pixelPaths.join("\n")}\n`);
    log(
      `SIGKILL ${killAfter} s into a pixel load of ${connections} keep-alive connections ` +
        `(Node client counting complete 200s), Fastify adapter, SQLite file`,
    );
    for (const acknowledge of ["after-commit", "immediately"] as const) {
      const storage = database.forRun();
      const server = await startServer({ framework: "fastify", variant: "mailpulse", storage, acknowledge });
      const client = startClient(server.origin, pathsFile, connections);
      await sleep(killAfter * 1000);
      await server.kill();
      // Every loop stops at its first error; a loop stuck on a half-open socket is stopped here.
      const safety = setTimeout(client.stop, 10_000);
      const counts = await client.finished;
      clearTimeout(safety);
      const recorded = await countRecorded(storage, "open");
      const lost = counts.ok - recorded.events;
      const verdict =
        recorded.counters !== recorded.events
          ? `counters ${count(recorded.counters)} != events ${count(recorded.events)}`
          : lost <= 0
            ? "ok: every answered hit was recorded"
            : acknowledge === "after-commit"
              ? `LOST ${count(lost)} answered hits`
              : `${count(lost)} answered hits lost (allowed: answered before their commit)`;
      rows.push({
        acknowledge,
        answered: counts.ok,
        recorded: recorded.events,
        counted: recorded.counters,
        verdict,
      });
      log(
        `  acknowledge ${acknowledge}: client read ${count(counts.ok)} 200s (${count(counts.errors)} connections cut), ` +
          `database holds ${count(recorded.events)} opens (counters ${count(recorded.counters)}): ${verdict}`,
      );
    }
    return rows;
  } finally {
    folder.remove();
  }
}

if (isMain(import.meta.url)) {
  printMachine();
  await run();
}
