/**
 * Child-process entry: an SMTP server on loopback that accepts every message and keeps nothing,
 * for the send case. The test peer of core (testing/smtp-test-server.ts) parses every message with
 * mailparser, which is right for tests and would make the sink, not MailPulse, the bottleneck.
 *
 * Prints `{"ready":true,"port":N}` once listening; on SIGTERM `{"received":N}`, then exits.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

let received = 0;
const server = new SMTPServer({
  disabledCommands: ["STARTTLS", "AUTH"],
  authOptional: true,
  // A reverse DNS lookup of 127.0.0.1 per connection measures the resolver, not MailPulse.
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on("end", () => {
      received += 1;
      callback();
    });
    stream.resume();
  },
});
// A client dropping its connection is reported as an error; it is no reason to stop.
server.on("error", () => {});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.server.address() as AddressInfo;
  console.log(JSON.stringify({ ready: true, port }));
});

process.on("SIGTERM", () => {
  console.log(JSON.stringify({ received }));
  server.close(() => process.exit(0));
  // Pooled client connections left open would hold close() for its whole timeout.
  setTimeout(() => process.exit(0), 2_000).unref();
});
