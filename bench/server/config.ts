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
}

/** A short human name for tables: `MailPulse (Fastify)`, `bare Express`. */
export function describeServer(config: ServerConfig): string {
  const framework = config.framework === "fastify" ? "Fastify" : "Express";
  return config.variant === "bare" ? `bare ${framework}` : `MailPulse (${framework})`;
}
