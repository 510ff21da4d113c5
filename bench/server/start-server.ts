/** The parent's side of a benchmark server process: start it pinned, stop it, or kill it. */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { nodeArguments } from "../lib/node-child.js";
import { pinned, serverCore } from "../lib/pin.js";
import type { ServerConfig } from "./config.js";

const entry = new URL("./server.ts", import.meta.url);
/** Loading TypeScript, Fastify and the core takes a second or two; a minute means something broke. */
const startTimeoutMs = 60_000;

/** A running server process. */
export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  pid: number;
  /** SIGTERM, then waits for the process to report it drained and exit; rejects if it does not exit 0. */
  stop(): Promise<void>;
  /** SIGKILL: no drain, no flush, no goodbye. Resolves once the process is gone. */
  kill(): Promise<void>;
}

/** Starts `node server.ts <config>` on the server core; resolves once it listens. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const [command, args] = pinned(serverCore, process.execPath, nodeArguments(entry, JSON.stringify(config)));
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stopped = false;

  const listening = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error("bench server did not start within 60 s")),
      startTimeoutMs,
    );
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`bench server exited with ${code} before listening`));
    });
    lines.on("line", (line) => {
      const message = parse(line);
      if (message?.ready === true && typeof message.port === "number") {
        clearTimeout(timer);
        resolve(message.port);
      } else if (message?.stopped === true) {
        stopped = true;
      } else {
        // Anything else the server prints (a logged error) is worth seeing.
        console.log(`  [server] ${line}`);
      }
    });
  });

  let port: number;
  try {
    port = await listening;
  } catch (error) {
    // A server that did not come up in time must not linger on the server core.
    killQuietly(child);
    throw error;
  }

  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      child.kill("SIGTERM");
      const code = await exited;
      if (code !== 0 || !stopped) throw new Error(`bench server did not stop cleanly (exit code ${code})`);
    },
    async kill() {
      killQuietly(child);
      await exited;
    },
  };
}

function killQuietly(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

function parse(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
