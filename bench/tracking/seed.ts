/**
 * Seeds sent emails through MailPulse's public API (`emails.send` with the memory provider), so
 * the rows are exactly what a host's sends leave behind, and returns their tracking paths.
 */
import { createMailPulse, memoryProvider } from "@mailpulse/core";
import type { StorageConfig } from "../server/config.js";
import { openStorage } from "../server/open-storage.js";

/** What the load of the tracking cases hits: one pixel path and one click path per email. */
export interface SeededEmails {
  organizationId: string;
  /** An API key of the organization, for `POST /api/send`. */
  apiKey: string;
  /** `/api/t/o/<trackingId>`, one per email, in send order. */
  pixelPaths: string[];
  /** `/api/t/c/<linkId>` of each email's first link, in send order. */
  clickPaths: string[];
}

/** Sends in flight at once: on PostgreSQL the round trips overlap; SQLite serialises them anyway. */
const concurrentSends = 10;

function newsletter(index: number): string {
  return `<html><body><table role="presentation"><tr><td>
<h1>Offer ${index}</h1><p>Hello, this week's selection is ready.</p>
<p><a href="https://shop.example.com/p/${index}?utm_source=newsletter&amp;utm_medium=email">See it</a>
 &middot; <a href="https://shop.example.com/account">Your account</a></p>
</td></tr></table></body></html>`;
}

/**
 * Migrates the database of `config`, creates an organization with an API key and sends `count`
 * emails (one `to` recipient, two links each). Pass `count` 0 for just the organization.
 */
export async function seedSentEmails(config: StorageConfig, count: number): Promise<SeededEmails> {
  const storage = openStorage(config);
  const provider = memoryProvider();
  const mailpulse = createMailPulse({ storage, baseUrl: "http://127.0.0.1", mailProvider: provider });
  try {
    await storage.migrate();
    const organization = await mailpulse.organizations.create({ name: "Bench" });
    const { key } = await mailpulse.apiKeys.create(organization.id, { name: "bench" });
    const pixelPaths: string[] = new Array(count);
    const clickPaths: string[] = new Array(count);
    let next = 0;
    const sender = async () => {
      for (let index = next++; index < count; index = next++) {
        const sent = await mailpulse.emails.send(organization.id, {
          from: "news@shop.example.com",
          to: [`reader${index}@example.net`],
          subject: `Offer ${index}`,
          htmlContent: newsletter(index),
        });
        pixelPaths[index] = new URL(sent.pixelUrl).pathname;
        clickPaths[index] = new URL(sent.links[0]!.trackingUrl).pathname;
        // Captured messages are not needed and would only hold memory.
        if (index % 1000 === 999) provider.clear();
      }
    };
    await Promise.all(Array.from({ length: concurrentSends }, sender));
    return { organizationId: organization.id, apiKey: key, pixelPaths, clickPaths };
  } finally {
    await mailpulse.stop();
    await storage.close();
  }
}
