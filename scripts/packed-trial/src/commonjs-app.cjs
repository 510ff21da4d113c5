// A CommonJS host (`require`, as many Express apps still are) on a SQLite file: opening it starts
// the background checkpoint, whose worker finds better-sqlite3 through the CommonJS build's
// `import.meta.url` shim. Sends one email and fetches its pixel; exits 1 unless both answer 200.
const { mkdtempSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { createMailPulse } = require("@mailpulse/core");
const { mailpulseExpress, mailpulseErrorHandler } = require("@mailpulse/adapter-express");
const { sqliteStorage } = require("@mailpulse/storage-sqlite");
const express = require("express");

async function main() {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-cjs-"));
  const storage = sqliteStorage({ filename: join(folder, "mailpulse.db") });
  await storage.migrate();
  const mailpulse = createMailPulse({ storage, baseUrl: "http://127.0.0.1:3103" });
  const app = express();
  app.use(mailpulseExpress(mailpulse));
  app.use(mailpulseErrorHandler(mailpulse));
  const server = app.listen(3103, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const organization = await mailpulse.organizations.create({ name: "CommonJS" });
    const { key } = await mailpulse.apiKeys.create(organization.id);
    const sent = await fetch("http://127.0.0.1:3103/api/send", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({
        from: "a@trial.example",
        to: "b@example.com",
        subject: "Hi",
        htmlContent: "<p>Hi</p>",
      }),
    });
    const { pixelUrl } = await sent.json();
    const pixel = await fetch(pixelUrl);
    console.log(`POST /api/send: ${sent.status}; GET the pixel: ${pixel.status}`);
    if (sent.status !== 200 || pixel.status !== 200) process.exitCode = 1;
  } finally {
    server.close();
    await mailpulse.stop();
    await storage.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
