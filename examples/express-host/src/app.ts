import { mailpulseErrorHandler, mailpulseExpress } from "@mailpulse/adapter-express";
import { createMailPulse, type MailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import express, { type ErrorRequestHandler, type Express } from "express";

/** Options of {@link createHostApp}. */
export interface HostAppOptions {
  /** SQLite database file; created with its folders when missing. Default `:memory:`. */
  databaseFile?: string;
  /** Public address of the app, used in tracking URLs. Default `http://localhost:3001`. */
  baseUrl?: string;
}

/**
 * An Express app with routes of its own (`GET /health`, `POST /signup`, `GET /api/users/me`) and
 * the MailPulse API mounted beside them at `/api`; every `/api` answer, errors included, is JSON. `close()` stops MailPulse and closes the database; stop the HTTP
 * server first.
 */
export async function createHostApp(
  options: HostAppOptions = {},
): Promise<{ app: Express; mailpulse: MailPulse; close: () => Promise<void> }> {
  const storage = sqliteStorage({ filename: options.databaseFile ?? ":memory:" });
  await storage.migrate();
  const mailpulse = createMailPulse({ storage, baseUrl: options.baseUrl ?? "http://localhost:3001" });
  // Background work that runs on its own (the daily re-check of verified sending domains).
  await mailpulse.start();

  const app = express();
  // MailPulse first, before any body parser: it reads its own bodies, each route with its own
  // limit (1 MiB, 20 MiB for the sending routes), and passes every other request on.
  app.use(mailpulseExpress(mailpulse));
  // The host's parser after it, with the host's own limit (express.json()'s 100 kB default).
  app.use(express.json());
  app.get("/health", (_req, res) => {
    res.json({ ok: true });
  });
  app.post("/signup", (req, res) => {
    res.status(201).json({ received: req.body as unknown });
  });
  // The host parser's 400/413 on /api paths come back as MailPulse-style {"error"} JSON, not HTML.
  app.use(mailpulseErrorHandler(mailpulse));

  // The host's own /api routes live beside MailPulse's, even when registered after it.
  app.get("/api/users/me", (_req, res) => {
    res.json({ id: "u_1", email: "ada@example.com" });
  });
  app.use("/api", (req, res) => {
    res.status(404).json({ error: `No route for ${req.method} ${req.originalUrl}` });
  });

  // Anything else (the host's own failures) ends up here.
  const onError: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const status = typeof error?.status === "number" && error.status < 500 ? error.status : 500;
    if (status === 500) console.error(error);
    res.status(status).json({ error: status === 500 ? "Internal server error" : String(error.message) });
  };
  app.use(onError);

  const close = async () => {
    await mailpulse.stop();
    await storage.close();
  };
  return { app, mailpulse, close };
}
