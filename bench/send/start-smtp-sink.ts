/** The parent's side of the SMTP sink: start it on the load core, stop it and read its count. */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { nodeArguments } from "../lib/node-child.js";
import { loadCore, pinned } from "../lib/pin.js";

const entry = new URL("./smtp-sink.ts", import.meta.url);

/** A running sink. */
export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` for `smtpProvider({ url })`. */
  url: string;
  /** Stops the sink; resolves to the messages it accepted. */
  stop(): Promise<number>;
}

/**
 * Starts the sink pinned to the load core: the server core is MailPulse's alone, and at 10
 * connections wrk leaves the load core mostly idle.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const [command, args] = pinned(loadCore, process.execPath, nodeArguments(entry));
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let received: number | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    exited.then(() => reject(new Error("SMTP sink exited before listening")));
    lines.on("line", (line) => {
      const message = JSON.parse(line) as { ready?: boolean; port?: number; received?: number };
      if (message.ready && message.port) resolve(message.port);
      if (message.received !== undefined) received = message.received;
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      if (received === undefined) throw new Error("SMTP sink did not report its count");
      return received;
    },
  };
}
