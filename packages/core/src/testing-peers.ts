/**
 * `@mailpulse/core/testing/peers`: real servers on loopback to test against instead of mocks. An
 * SMTP server that parses what it receives (needs `smtp-server` and `mailparser` as dev
 * dependencies), a DNS server for domain verification (needs `dns2`), and an HTTPS webhook
 * receiver with a self-signed certificate (nothing to install).
 */
export * from "./testing/dns-test-server.js";
export * from "./testing/https-test-receiver.js";
export {
  type ParsedReceivedMessage,
  type ReceivedAddress,
  type ReceivedEnvelope,
  type SmtpTestServer,
  type SmtpTestServerOptions,
  startSmtpTestServer,
} from "./testing/smtp-test-server.js";
