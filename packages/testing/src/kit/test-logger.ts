import type { LogFields, Logger } from "@mailpulse/core";

/** One line MailPulse logged during a test. */
export interface LoggedLine {
  level: "info" | "error";
  message: string;
  /** The error an `error` line was written for. */
  error?: unknown;
  fields?: LogFields;
}

/** A {@link Logger} that keeps its lines for assertions instead of printing them. */
export interface TestLogger extends Logger {
  /** Every line so far, oldest first. */
  readonly lines: readonly LoggedLine[];
  /** Forgets every line. */
  clear(): void;
}

/** Creates a quiet {@link TestLogger}: nothing reaches the console, everything can be asserted on. */
export function createTestLogger(): TestLogger {
  const lines: LoggedLine[] = [];
  return {
    get lines(): readonly LoggedLine[] {
      return lines;
    },
    clear: () => {
      lines.length = 0;
    },
    info: (message, fields) => {
      lines.push({ level: "info", message, ...(fields ? { fields } : {}) });
    },
    error: (message, error, fields) => {
      lines.push({ level: "error", message, error, ...(fields ? { fields } : {}) });
    },
  };
}
