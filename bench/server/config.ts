/** What a benchmark server process serves; passed to it as JSON on its command line. */

/** The database a MailPulse server uses. */
export type StorageConfig =
  | { kind: "sqlite"; filename: string }
  | { kind: "postgres"; url: string; schema: string };

/** One benchmark server. */
export interface ServerConfig {
  framework: "fastify" | "express";
  /**
   * `mailpulse`: the framework with the MailPulse adapter mounted the documented way.
   * `bare`: the same framework with hand-written routes answering what MailPulse answers (the
   * same GIF and headers, a 302 with the same headers, a JSON body parsed), doing nothing else:
   * the ceiling a MailPulse route could reach on this framework.
   */
  variant: "mailpulse" | "bare";
  /** Required for `mailpulse`. */
  storage?: StorageConfig;
  /** `tracking.acknowledge` of the MailPulse instance; default MailPulse's (`after-commit`). */
  acknowledge?: "after-commit" | "immediately";
  /** Deliver through SMTP at this URL (`smtp://127.0.0.1:port`); default: the memory provider. */
  smtpUrl?: string;
  /**
   * Answer every hit without writing it (`storage.tracking.recordEvents` resolves at once): the
   * ceiling of everything MailPulse does but the database write, measured, not estimated. Never
   * a contender for the targets; it says how much of the gap to the bare route the write is.
   */
  skipTrackingWrites?: boolean;
}

/** A short human name for tables: `MailPulse (Fastify)`, `bare Express`. */
export function describeServer(config: ServerConfig): string {
  const framework = config.framework === "fastify" ? "Fastify" : "Express";
  if (config.variant === "bare") return `bare ${framework}`;
  return config.skipTrackingWrites ? `MailPulse (${framework}), no write` : `MailPulse (${framework})`;
}
