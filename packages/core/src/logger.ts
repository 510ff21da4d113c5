/** Where MailPulse writes what operators need to see. Default: the console. */
export interface Logger {
  info(message: string): void;
  /** An unexpected failure, with the error and its stack. */
  error(message: string, error?: unknown): void;
}

/** Logs to `console`. */
export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  error: (message, error) => console.error(message, error),
};
