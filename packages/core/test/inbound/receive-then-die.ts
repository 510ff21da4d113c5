/**
 * The child of inbound-crash.test.ts: runs the inbound receiver on a SQLite file and says its
 * port (`port <n>` on stdout), then serves until the test kills it with SIGKILL in the middle of
 * a burst of DSNs. Argv: <sqlite file> <signing secret>.
 */
import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";

const [filename, signingSecret] = process.argv.slice(2) as [string, string];
const mailpulse = createMailPulse({
  storage: sqliteStorage({ filename }),
  baseUrl: "http://mailpulse.test",
  platformDomain: "mailpulse.test",
  signingSecret,
  logger: { info: () => {}, error: () => {} },
});
const receiver = await mailpulse.inbound.listen({ port: 0, host: "127.0.0.1" });
process.stdout.write(`port ${receiver.port}\n`);
