import type { Kysely, Selectable } from "kysely";
import type { TrackedEmail, TrackingStore } from "../../ports/storage.js";
import type { HitRecorder, MailPulseDialect } from "../dialect.js";
import { toDateOrNull } from "../mappers.js";
import { retryOnLockConflict } from "../retry-on-lock-conflict.js";
import type { EmailTable, MailPulseDatabase } from "../schema.js";

const emailColumns = [
  "mailpulse_email.id",
  "mailpulse_email.organization_id",
  "mailpulse_email.campaign_id",
  "mailpulse_email.tracking_id",
  "mailpulse_email.status",
  "mailpulse_email.sent_at",
  "mailpulse_email.recipient",
  "mailpulse_email.subject",
] as const;

type EmailRow = Pick<
  Selectable<EmailTable>,
  "id" | "organization_id" | "campaign_id" | "tracking_id" | "status" | "sent_at" | "recipient" | "subject"
>;

function toTrackedEmail(row: EmailRow): TrackedEmail {
  return {
    id: row.id,
    organizationId: row.organization_id,
    campaignId: row.campaign_id,
    trackingId: row.tracking_id,
    status: row.status,
    sentAt: toDateOrNull(row.sent_at),
    recipient: row.recipient,
    subject: row.subject,
  };
}

/** {@link TrackingStore} on Kysely. */
export function createTrackingStore(
  db: Kysely<MailPulseDatabase>,
  dialect: MailPulseDialect,
  /** The dialect's batch writer (`MailPulseDialect.createHitRecorder`). */
  recordBatch: HitRecorder,
): TrackingStore {
  return {
    concurrentBatches: dialect.concurrentHitBatches,
    async findEmails(trackingIds) {
      if (trackingIds.length === 0) return [];
      const rows = await db
        .selectFrom("mailpulse_email")
        .select(emailColumns)
        .where("tracking_id", "in", trackingIds)
        .execute();
      return rows.map(toTrackedEmail);
    },
    async findLinks(linkIds) {
      if (linkIds.length === 0) return [];
      const rows = await db
        .selectFrom("mailpulse_link")
        .innerJoin("mailpulse_email", "mailpulse_email.id", "mailpulse_link.email_id")
        .select([...emailColumns, "mailpulse_link.id as link_id", "mailpulse_link.url"])
        .where("mailpulse_link.id", "in", linkIds)
        .execute();
      return rows.map((row) => ({ id: row.link_id, url: row.url, email: toTrackedEmail(row) }));
    },
    async recordEvents(hits) {
      if (hits.length === 0) return 0;
      return retryOnLockConflict(() => recordBatch(hits), dialect.isLockConflict);
    },
  };
}
