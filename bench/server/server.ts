/**
 * Child-process entry of every benchmark server: `node server.ts '<ServerConfig JSON>'`.
 *
 * Prints `{"ready":true,"port":N}` once listening. On SIGTERM it closes the app (for MailPulse:
 * stops, draining queued hits, and closes the storage), prints `{"stopped":true}` and exits 0, so
 * the parent can count what was recorded. A process of its own so it can be pinned to the server
 * core, killed with SIGKILL (the crash case), and restarted with cold caches for every run.
 */
import { startBareExpress, startBareFastify } from "./bare-app.js";
import type { ServerConfig } from "./config.js";
import { startMailPulseApp } from "./mailpulse-app.js";

const config = JSON.parse(process.argv[2] ?? "{}") as ServerConfig;

const app =
  config.variant === "mailpulse"
    ? await startMailPulseApp(config)
    : config.framework === "fastify"
      ? await startBareFastify()
      : await startBareExpress();

let stopping = false;
process.on("SIGTERM", () => {
  if (stopping) return;
  stopping = true;
  app.close().then(
    () => {
      console.log(JSON.stringify({ stopped: true }));
      process.exit(0);
    },
    (error: unknown) => {
      console.error("bench server: close failed", error);
      process.exit(1);
    },
  );
});

console.log(JSON.stringify({ ready: true, port: app.port }));
