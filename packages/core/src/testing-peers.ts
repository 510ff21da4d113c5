/**
 * `@mailpulse/core/testing/peers`: real servers on loopback to test against instead of mocks. An
 * SMTP server that parses what it receives (needs `smtp-server` and `mailparser` as dev
 * dependencies) and a DNS server for domain verification (needs `dns2`).
 */
export * from "./testing/dns-test-server.js";
export {
  type ParsedReceivedMessage,
  type ReceivedAddress,
  type ReceivedEnvelope,
  type SmtpTestServer,
  type SmtpTestServerOptions,
  startSmtpTestServer,
} from "./testing/smtp-test-server.js";
