/**
 * The child of crash-reconciliation.test.ts: sends one email through SMTP and is killed with
 * SIGKILL by the test while the SMTP server holds the message (delivered, not yet acknowledged).
 * Argv: <storage> <smtp url> <organization id> <recipient>, where <storage> is `sqlite:<file>` or
 * `postgres:<schema>` (a schema of the database at DATABASE_URL).
 */
import { createMailPulse, smtpProvider } from "@mailpulse/core";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteStorage } from "@mailpulse/storage-sqlite";

const [where, smtpUrl, organizationId, recipient] = process.argv.slice(2) as [string, string, string, string];
const separator = where.indexOf(":");
const location = where.slice(separator + 1);
const storage = where.startsWith("sqlite:")
  ? sqliteStorage({ filename: location })
  : postgresStorage({ connectionString: process.env.DATABASE_URL ?? "", schema: location });
const mailpulse = createMailPulse({
  storage,
  baseUrl: "http://mailpulse.test",
  mailProvider: smtpProvider({ url: smtpUrl }),
  logger: { info: () => {}, error: () => {} },
});
await mailpulse.emails.send(organizationId, {
  from: "a@shop.example",
  to: recipient,
  subject: "Sent just before the crash",
  htmlContent: '<p>Hi <a href="https://shop.example/x">x</a></p>',
  campaignId: "Crash",
});
// Not reached in the test: the process is killed before the provider's answer is recorded.
process.stdout.write("sent\n");
