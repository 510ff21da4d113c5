/** The bundled mail providers: SMTP through nodemailer, and in-memory capture. */

export type { CapturedMessage, MemoryProvider, MemoryProviderOptions } from "./memory-provider.js";
export { memoryProvider } from "./memory-provider.js";
export type { SmtpProviderOptions } from "./smtp-provider.js";
export { smtpProvider } from "./smtp-provider.js";
