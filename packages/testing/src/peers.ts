/**
 * `@mailpulse/testing/peers`: real servers on loopback to test against instead of mocks. An
 * SMTP server that parses what it receives (needs `smtp-server` and `mailparser` as dev
 * dependencies), a DNS server for domain verification (needs `dns2`), and an HTTPS webhook
 * receiver with a self-signed certificate (nothing to install).
 */
export * from "./dns-test-server.js";
// The receiver's certificate and key, for a test that serves its own HTTPS receiver (say, a
// webhook consumer's) which the MailPulse transport should trust.
export { testReceiverCertificate, testReceiverPrivateKey } from "./fixtures/self-signed-certificate.js";
export {
  type SnsEnvelope,
  signSnsEnvelope,
  testSnsCertificate,
  testSnsCertificateUrl,
  testSnsPrivateKey,
} from "./fixtures/sns-signing-certificate.js";
export * from "./https-test-receiver.js";
export {
  type ParsedReceivedMessage,
  type ReceivedAddress,
  type ReceivedEnvelope,
  type SmtpTestServer,
  type SmtpTestServerOptions,
  startSmtpTestServer,
} from "./smtp-test-server.js";
