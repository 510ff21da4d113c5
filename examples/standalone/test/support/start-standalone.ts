import { type ChildProcess, spawn } from "node:child_process";

const main = new URL("../../src/main.ts", import.meta.url).pathname;

/** The standalone server in a child process, as `npm start` runs it. */
export interface StandaloneServer {
  /** `http://127.0.0.1:<port>` as the server printed it. */
  baseUrl: string;
  /** The first organization's API key, printed once at first start. */
  apiKey: string;
  process: ChildProcess;
  /** SIGTERM, and wait for the process to end. */
  stop(): Promise<void>;
}

/**
 * Starts `src/main.ts` with `env` on top of this process's environment (an ephemeral port, no
 * `DATABASE_URL` unless given) and resolves once it prints where it listens and its first key.
 */
export async function startStandalone(env: Record<string, string>): Promise<StandaloneServer> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=source", main], {
    env: { ...process.env, PORT: "0", DATABASE_URL: "", ...env },
  });
  let output = "";
  const { baseUrl, apiKey } = await new Promise<{ baseUrl: string; apiKey: string }>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /MailPulse listening on (http:\/\/\S+)/.exec(output);
      const key = /\s(mp_[A-Za-z0-9_-]{43})\s/.exec(output);
      if (listening?.[1] && key?.[1]) resolve({ baseUrl: listening[1], apiKey: key[1] });
    });
  });
  return {
    baseUrl,
    apiKey,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
