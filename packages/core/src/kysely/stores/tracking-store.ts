import { type Kysely, type Selectable, sql } from "kysely";
import type { TrackedEmail, TrackingStore } from "../../ports/storage.js";
import { toDateOrNull } from "../mappers.js";
import { bumpDailyStat, countEventForContacts, enqueueWebhookEvent } from "../rollups.js";
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
export function createTrackingStore(db: Kysely<MailPulseDatabase>): TrackingStore {
  return {
    async findEmail(trackingId) {
      const row = await db
        .selectFrom("mailpulse_email")
        .select(emailColumns)
        .where("tracking_id", "=", trackingId)
        .executeTakeFirst();
      return row && toTrackedEmail(row);
    },
    async findLink(linkId) {
      const row = await db
        .selectFrom("mailpulse_link")
        .innerJoin("mailpulse_email", "mailpulse_email.id", "mailpulse_link.email_id")
        .select([...emailColumns, "mailpulse_link.id as link_id", "mailpulse_link.url"])
        .where("mailpulse_link.id", "=", linkId)
        .executeTakeFirst();
      return row && { id: row.link_id, url: row.url, email: toTrackedEmail(row) };
    },
    async recordEvent(event, webhookEvent) {
      const at = event.occurredAt.getTime();
      await db.transaction().execute(async (trx) => {
        // The first open or click marks the email opened (and the first click, clicked).
        const firstAt = (column: "first_opened_at" | "first_clicked_at") =>
          sql<number>`coalesce(${sql.ref(column)}, ${at})`;
        const counted = await trx
          .updateTable("mailpulse_email")
          .set((eb) =>
            event.type === "open"
              ? {
                  open_count: eb("open_count", "+", 1),
                  first_opened_at: firstAt("first_opened_at"),
                }
              : {
                  click_count: eb("click_count", "+", 1),
                  first_opened_at: firstAt("first_opened_at"),
                  first_clicked_at: firstAt("first_clicked_at"),
                },
          )
          .where("organization_id", "=", event.organizationId)
          .where("id", "=", event.emailId)
          .where("status", "=", "sent")
          .executeTakeFirst();
        // Not sent (failed, or still sending): nothing is counted.
        if (Number(counted.numUpdatedRows) === 0) return;
        await trx
          .insertInto("mailpulse_event")
          .values({
            organization_id: event.organizationId,
            email_id: event.emailId,
            campaign_id: event.campaignId,
            link_id: event.linkId,
            type: event.type,
            occurred_at: at,
            ip: event.ip,
            user_agent: event.userAgent,
          })
          .execute();
        if (event.type === "click" && event.linkId) {
          await trx
            .updateTable("mailpulse_link")
            .set((eb) => ({ click_count: eb("click_count", "+", 1) }))
            .where("id", "=", event.linkId)
            .execute();
        }
        await countEventForContacts(trx, event.organizationId, event.emailId, event.type, at);
        await bumpDailyStat(
          trx,
          { organizationId: event.organizationId, campaignId: event.campaignId, at },
          event.type === "open" ? { opens: 1 } : { clicks: 1 },
        );
        if (webhookEvent) await enqueueWebhookEvent(trx, event.organizationId, webhookEvent);
      });
    },
  };
}
