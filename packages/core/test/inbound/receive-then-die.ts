/**
 * The child of inbound-crash.test.ts: runs the inbound receiver on a SQLite file and says its
 * port (`port <n>` on stdout), then serves until the test kills it with SIGKILL in the middle of
 * a burst of DSNs. Argv: <storage> <signing secret>, where <storage> is `sqlite:<file>` or
 * `postgres:<schema>` (a schema of the database at DATABASE_URL).
 */
import { createMailPulse } from "@mailpulse/core";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteStorage } from "@mailpulse/storage-sqlite";

const [where, signingSecret] = process.argv.slice(2) as [string, string];
const location = where.slice(where.indexOf(":") + 1);
const storage = where.startsWith("sqlite:")
  ? sqliteStorage({ filename: location })
  : postgresStorage({ connectionString: process.env.DATABASE_URL ?? "", schema: location });
const mailpulse = createMailPulse({
  storage,
  baseUrl: "http://mailpulse.test",
  platformDomain: "mailpulse.test",
  signingSecret,
  logger: { info: () => {}, error: () => {} },
});
const receiver = await mailpulse.inbound.listen({ port: 0, host: "127.0.0.1" });
process.stdout.write(`port ${receiver.port}\n`);
