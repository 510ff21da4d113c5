import { mailpulseErrorHandler, mailpulseExpress } from "@mailpulse/adapter-express";
import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import express from "express";

// The README's Express snippet, with the host's own /api routes on both sides of the mount.
const storage = sqliteStorage({ filename: ":memory:" });
await storage.migrate();
const mailpulse = createMailPulse({ storage, baseUrl: "http://127.0.0.1:3101" });

const app = express();
app.get("/api/health", (_req, res) => {
  res.json({ ok: true });
});
// MailPulse before the host's parser: its routes keep their own limits, the host's keep 100 kB.
app.use(mailpulseExpress(mailpulse));
app.use(express.json());
app.use(mailpulseErrorHandler(mailpulse));
app.get("/api/users", (_req, res) => {
  res.json([{ id: 1 }]);
});
app.post("/api/users", (req, res) => {
  res.status(201).json({ created: req.body as unknown });
});
app.use("/api", (req, res) => {
  res.status(404).json({ error: `No route for ${req.method} ${req.originalUrl}` });
});

const server = app.listen(3101, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const organization = await mailpulse.organizations.create({ name: "Trial" });
const { key } = await mailpulse.apiKeys.create(organization.id);

const base = "http://127.0.0.1:3101";
const failures: string[] = [];
/** Prints the answer, and notes it when its status is not `status` or its body is not JSON. */
const check = async (label: string, response: Response, status: number) => {
  const body = await response.text();
  const type = response.headers.get("content-type") ?? "";
  console.log(`${label}: ${response.status} ${type} ${body.slice(0, 110)}`);
  if (response.status !== status || !type.startsWith("application/json")) failures.push(label);
};
const json = { "content-type": "application/json", "x-api-key": key };
const newsletter = `<p>${"Lorem ipsum dolor sit amet. ".repeat(5200)}</p>`;
const send = (htmlContent: string) =>
  fetch(`${base}/api/send`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ from: "news@trial.example", to: "ada@example.com", subject: "News", htmlContent }),
  });
const post = (path: string, body: string) => fetch(`${base}${path}`, { method: "POST", headers: json, body });

await check("GET /api/health (host, before the mount)", await fetch(`${base}/api/health`), 200);
await check("GET /api/users (host, after the mount)", await fetch(`${base}/api/users`), 200);
await check("POST /api/users (host, JSON)", await post("/api/users", '{"name":"bob"}'), 201);
await check("GET /api/campaigns (MailPulse)", await fetch(`${base}/api/campaigns`, { headers: json }), 200);
await check("GET /api/campaigns without key", await fetch(`${base}/api/campaigns`), 401);
await check("DELETE /api/stats (wrong method)", await fetch(`${base}/api/stats`, { method: "DELETE" }), 405);
await check("GET /api/nothing (nobody)", await fetch(`${base}/api/nothing`), 404);
await check("POST /api/campaigns malformed JSON", await post("/api/campaigns", "{not json"), 400);
await check("POST /api/users malformed JSON", await post("/api/users", "{not json"), 400);
await check(`POST /api/send ${newsletter.length}-byte newsletter`, await send(newsletter), 200);
// Sends take up to 20 MiB (5 MiB of HTML), every other route 1 MiB, whatever the host's parser allows.
await check("POST /api/send 2 MB body", await send("x".repeat(2 * 1024 * 1024)), 200);
await check(
  "POST /api/campaigns 2 MB body",
  await post("/api/campaigns", JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) })),
  413,
);
await check("POST /api/send 21 MB body (the parser's limit)", await send("x".repeat(21 * 1024 * 1024)), 413);

server.close();
await mailpulse.stop();
await storage.close();
if (failures.length > 0) {
  console.error(`Not as expected: ${failures.join("; ")}`);
  process.exit(1);
}
