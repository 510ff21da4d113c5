import { Writable } from "node:stream";
import { mailpulseFastify } from "@mailpulse/adapter-fastify";
import { createMailPulse, smtpProvider } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import Fastify from "fastify";

// MailPulse logs through Fastify's pino logger; a send to an SMTP port nobody listens on fails.
// Fastify's pino logger, printing as usual, while the trial keeps the lines to check them.
const lines: Record<string, unknown>[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    process.stdout.write(chunk);
    for (const line of chunk.toString("utf8").split("\n")) if (line) lines.push(JSON.parse(line));
    done();
  },
});
const app = Fastify({ logger: { stream } });
const storage = sqliteStorage({ filename: ":memory:" });
await storage.migrate();
const mailpulse = createMailPulse({
  storage,
  baseUrl: "https://mail.trial.example",
  mailProvider: smtpProvider({ url: "smtp://127.0.0.1:1" }),
  logger: app.log,
});
await mailpulse.start();
await app.register(mailpulseFastify, { mailpulse });
app.get("/api/users", async () => [{ id: 1 }]);

const organization = await mailpulse.organizations.create({ name: "Trial" });
const { key } = await mailpulse.apiKeys.create(organization.id);
const users = await app.inject({ method: "GET", url: "/api/users" });
console.log(`GET /api/users (host): ${users.statusCode} ${users.body}`);
const response = await app.inject({
  method: "POST",
  url: "/api/send",
  headers: { "x-api-key": key, "content-type": "application/json" },
  payload: { from: "a@trial.example", to: "ada@example.com", subject: "Hi", htmlContent: "<p>Hi</p>" },
});
console.log(`POST /api/send: ${response.statusCode} ${response.body}`);
await app.close();
await mailpulse.stop();
await storage.close();
const failure = lines.find((line) => line.level === 50);
const logged = failure?.emailId !== undefined && Array.isArray(failure.to) && failure.err !== undefined;
if (users.statusCode !== 200 || response.statusCode !== 500 || !logged) {
  console.error("Not as expected: the host route, the 500 or the level-50 line with emailId, to and err");
  process.exit(1);
}
