/**
 * Child-process entry of the crash case's load: `node client.ts <origin> <paths file> <connections>`.
 *
 * wrk reports nothing when its server dies under it, and counts a response when its headers
 * arrive; this client counts a 200 only once its whole body was read, which is what "the mail
 * client got its pixel" means. Each of `connections` keep-alive loops requests the next path
 * until its first error (the server was killed); when all have stopped it prints
 * `{"ok":N,"otherStatus":N,"errors":N}` and exits.
 */

import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";

const [origin = "", pathsFile = "", connectionsText = "50"] = process.argv.slice(2);
const paths = readFileSync(pathsFile, "utf8").split("\n").filter(Boolean);
const connections = Number(connectionsText);
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const counts = { ok: 0, otherStatus: 0, errors: 0 };
let next = 0;

/** One request; resolves true when its complete answer was read, false on any error. */
function hit(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const outgoing = request(`${origin}${path}`, { agent }, (response) => {
      response.on("data", () => {});
      response.on("end", () => {
        if (response.statusCode === 200) counts.ok += 1;
        else counts.otherStatus += 1;
        resolve(true);
      });
      response.on("error", () => resolve(false));
      // `end` never comes when the connection is cut mid-body.
      response.on("aborted", () => resolve(false));
    });
    outgoing.on("error", () => resolve(false));
    outgoing.end();
  });
}

async function loop(): Promise<void> {
  for (;;) {
    const path = paths[next++ % paths.length]!;
    if (!(await hit(path))) {
      counts.errors += 1;
      return;
    }
  }
}

// Printed even if the parent has to stop a loop that never saw its error.
process.on("SIGTERM", () => {
  console.log(JSON.stringify(counts));
  process.exit(0);
});

await Promise.all(Array.from({ length: connections }, loop));
console.log(JSON.stringify(counts));
agent.destroy();
