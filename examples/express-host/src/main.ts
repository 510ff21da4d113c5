/** `npm start`: the Express host app on PORT (default 3001), MailPulse under `/api`. */
import { createHostApp } from "./app.js";

const port = Number(process.env.PORT) || 3001;
const { app, mailpulse, close } = await createHostApp({
  databaseFile: process.env.DATABASE_FILE,
  baseUrl: process.env.BASE_URL ?? `http://localhost:${port}`,
});

// Organizations and API keys are created in-process; there is no HTTP route for them.
if ((await mailpulse.organizations.list()).length === 0) {
  const organization = await mailpulse.organizations.create({ name: "Demo" });
  const { key } = await mailpulse.apiKeys.create(organization.id);
  console.log(`Created organization Demo; its API key (shown once): ${key}`);
}

const server = app.listen(port, "127.0.0.1", (error) => {
  if (error) throw error;
  console.log(`Listening on http://127.0.0.1:${port} (MailPulse API under /api)`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close(() => void close().then(() => process.exit(0)));
    server.closeIdleConnections();
  });
}
