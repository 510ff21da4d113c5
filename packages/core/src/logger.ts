/** Facts of a log line a structured logger keeps as fields: `{ emailId, to }`. */
export type LogFields = Record<string, unknown>;

/**
 * Where MailPulse writes what operators need to see, message first (the console's order).
 * Messages are complete sentences that already name what `fields` hold, so a logger that ignores
 * `fields` loses nothing.
 *
 * A pino-style logger (pino, Fastify's `app.log`) fits this type too, since it also takes a lone
 * message; MailPulse recognises it by its `child` method and calls it fields first instead (see
 * {@link StructuredLogger}), so its lines keep their fields and errors.
 */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  /** An unexpected failure, with the error and its stack. */
  error(message: string, error?: unknown, fields?: LogFields): void;
}

/**
 * A pino-style logger: fields first, message second. pino, bunyan and Fastify's `app.log` are
 * ones; they also take a lone message, so they are {@link Logger}s too. MailPulse tells one by its
 * `child` method and calls it fields first, with an error as the `err` field, which pino's
 * standard serializer prints with the stack.
 */
export interface StructuredLogger extends Logger {
  info(message: string, fields?: LogFields): void;
  info(fields: object, message: string): void;
  error(message: string, error?: unknown, fields?: LogFields): void;
  error(fields: object, message: string): void;
  /** Only its presence matters: it is how a structured logger is recognised. */
  child(...args: never[]): unknown;
}

/** Logs to `console`: `console.log(message)`, `console.error(message, error)`. */
export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)),
};

/**
 * The {@link Logger} MailPulse writes to, from what the host passed: a {@link StructuredLogger}
 * is called fields first (`error({ ...fields, err }, message)`); a {@link Logger} as it is.
 */
export function toLogger(logger: Logger | undefined): Logger {
  if (logger === undefined) return consoleLogger;
  if (!isStructured(logger)) return logger;
  return {
    info: (message, fields) => logger.info({ ...fields }, message),
    error: (message, error, fields) =>
      logger.error(error === undefined ? { ...fields } : { ...fields, err: error }, message),
  };
}

function isStructured(logger: Logger): logger is StructuredLogger {
  return typeof (logger as Partial<StructuredLogger>).child === "function";
}
