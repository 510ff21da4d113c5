/** The `POST /api/send` body of the send case: a real newsletter, as a host would send it. */
import { readFileSync } from "node:fs";

/**
 * JSON of a send with the 19 KB newsletter fixture of core's tests (20 links, tables, MSO
 * conditional comments), one recipient, and metadata: the same bytes for MailPulse and the
 * bare route, which parses them and nothing else.
 */
export function sendBody(): string {
  const htmlContent = readFileSync(
    new URL("../../packages/core/test/fixtures/html/newsletter.html", import.meta.url),
    "utf8",
  );
  return JSON.stringify({
    from: "Shop News <news@shop.example.com>",
    to: ["reader@example.net"],
    subject: "This week's selection",
    htmlContent,
    metadata: { customerId: "c-1234", segment: "weekly" },
  });
}
