import { type Kysely, type Selectable, sql } from "kysely";
import type {
  BounceEventDetails,
  ComplaintEventDetails,
  DeliveryFeedbackRecord,
  DeliveryFeedbackStore,
  NewDeliveryFeedback,
  StoredEventType,
  UnsubscribeEventDetails,
} from "../../ports/storage.js";
import { normalizeAddress } from "../../util/normalize-address.js";
import type { MailPulseDialect } from "../dialect.js";
import { toCount, toDate } from "../mappers.js";
import { queueDeliveries } from "../outbox/queue-deliveries.js";
import { retryOnLockConflict } from "../retry-on-lock-conflict.js";
import { countedEmailStatuses, type DeliveryFeedbackTable, type MailPulseDatabase } from "../schema.js";

type Db = Kysely<MailPulseDatabase>;

const dayMs = 86_400_000;

/** `count(distinct email_id)` of the rows matching a kind (and bounce type): emails, not reports. */
function emailsWith(kind: DeliveryFeedbackTable["kind"], bounceType?: "hard" | "soft") {
  const condition = bounceType
    ? sql`f.kind = ${kind} and f.bounce_type = ${bounceType}`
    : sql`f.kind = ${kind}`;
  return sql<number | string>`count(distinct case when ${condition} then f.email_id end)`;
}

type TotalsRow = {
  hard: number | string;
  soft: number | string;
  complaints: number | string;
  unsubscribes: number | string;
};

function toTotals(row: TotalsRow | undefined) {
  return {
    hardBounces: toCount(row?.hard),
    softBounces: toCount(row?.soft),
    complaints: toCount(row?.complaints),
    unsubscribes: toCount(row?.unsubscribes),
  };
}

function toRecord(row: Selectable<DeliveryFeedbackTable>): DeliveryFeedbackRecord {
  return {
    id: Number(row.id),
    organizationId: row.organization_id,
    emailId: row.email_id,
    campaignId: row.campaign_id,
    recipient: row.recipient,
    kind: row.kind,
    bounceType: row.bounce_type,
    status: row.status,
    diagnostic: row.diagnostic,
    feedbackType: row.feedback_type,
    source: row.source,
    occurredAt: toDate(row.occurred_at),
  };
}

/** The event a new report appends, with the details its body reports; null for a delay. */
function eventOf(feedback: NewDeliveryFeedback): {
  type: StoredEventType;
  details: BounceEventDetails | ComplaintEventDetails | UnsubscribeEventDetails;
} | null {
  const { recipient } = feedback;
  switch (feedback.kind) {
    case "bounce":
      return {
        type: "bounce",
        details: {
          recipient,
          bounceType: feedback.bounceType === "hard" ? "hard" : "soft",
          status: feedback.status,
          diagnostic: feedback.diagnostic,
        },
      };
    case "complaint":
      return { type: "complaint", details: { recipient, feedbackType: feedback.feedbackType ?? "abuse" } };
    case "unsubscribe":
      return {
        type: "unsubscribe",
        details: { recipient, source: feedback.source as UnsubscribeEventDetails["source"] },
      };
    default:
      return null;
  }
}

/**
 * {@link DeliveryFeedbackStore} on Kysely: `mailpulse_delivery_feedback` (migration 0009), whose
 * unique index on (email, recipient, kind) makes recording idempotent; the event and its webhook
 * deliveries are written in the same transaction, as a sent email's are.
 */
export function createDeliveryFeedbackStore(
  db: Db,
  dialect: MailPulseDialect,
  schema: string | undefined,
): DeliveryFeedbackStore {
  /** Inserts the row, or upgrades a soft bounce to hard; true when something was written. */
  async function writeRow(
    trx: Db,
    feedback: NewDeliveryFeedback,
    campaignId: string | null,
  ): Promise<boolean> {
    const occurredAt = feedback.occurredAt.getTime();
    // `on conflict do nothing` answers only the row it inserted: a repeat (or a concurrent
    // duplicate that committed first) writes nothing and is told so.
    const inserted = await trx
      .insertInto("mailpulse_delivery_feedback")
      .values({
        organization_id: feedback.organizationId,
        email_id: feedback.emailId,
        campaign_id: campaignId,
        recipient: feedback.recipient,
        kind: feedback.kind,
        bounce_type: feedback.bounceType,
        status: feedback.status,
        diagnostic: feedback.diagnostic,
        feedback_type: feedback.feedbackType,
        source: feedback.source,
        occurred_at: occurredAt,
      })
      .onConflict((conflict) => conflict.columns(["email_id", "recipient", "kind"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted) return true;
    if (feedback.kind !== "bounce" || feedback.bounceType !== "hard") return false;
    // A soft bounce first (a 4xx, a full mailbox) and the final failure later: the later one is news.
    const upgraded = await trx
      .updateTable("mailpulse_delivery_feedback")
      .set({
        bounce_type: "hard",
        status: feedback.status,
        diagnostic: feedback.diagnostic,
        source: feedback.source,
        occurred_at: occurredAt,
      })
      .where("email_id", "=", feedback.emailId)
      .where("recipient", "=", feedback.recipient)
      .where("kind", "=", "bounce")
      .where("bounce_type", "=", "soft")
      .executeTakeFirst();
    return Number(upgraded.numUpdatedRows) > 0;
  }

  /** Sets the email `bounced` when every `to` recipient has a hard bounce; true when it did. */
  async function markBouncedWhenAllHard(trx: Db, organizationId: string, emailId: string): Promise<boolean> {
    const result = await trx
      .updateTable("mailpulse_email")
      .set({ status: "bounced" })
      .where("organization_id", "=", organizationId)
      .where("id", "=", emailId)
      // Only a sent email: one still `sending` is settled by the send, a `failed` one was never counted.
      .where("status", "in", ["sent", "unknown"])
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("mailpulse_email_recipient as r")
              .select("r.address")
              .where("r.email_id", "=", emailId)
              .where("r.kind", "=", "to")
              .where((inner) =>
                inner.not(
                  inner.exists(
                    inner
                      .selectFrom("mailpulse_delivery_feedback as f")
                      .select("f.id")
                      .where("f.email_id", "=", emailId)
                      .whereRef("f.recipient", "=", "r.address")
                      .where("f.kind", "=", "bounce")
                      .where("f.bounce_type", "=", "hard"),
                  ),
                ),
              ),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The organization's feedback rows of counted emails (what statistics count). */
  const countedFeedback = (organizationId: string) =>
    db
      .selectFrom("mailpulse_delivery_feedback as f")
      .innerJoin("mailpulse_email as m", "m.id", "f.email_id")
      .where("f.organization_id", "=", organizationId)
      .where("m.organization_id", "=", organizationId)
      .where("m.status", "in", countedEmailStatuses);

  const totalsColumns = [
    emailsWith("bounce", "hard").as("hard"),
    emailsWith("bounce", "soft").as("soft"),
    emailsWith("complaint").as("complaints"),
    emailsWith("unsubscribe").as("unsubscribes"),
  ];

  return {
    async record(input) {
      const feedback = { ...input, recipient: normalizeAddress(input.recipient) };
      const event = eventOf(feedback);
      return retryOnLockConflict(
        () =>
          db.transaction().execute(async (trx) => {
            // First, before any row lock: it appends to the event log (see MailPulseDialect.lockEventLog).
            if (event) await dialect.lockEventLog(trx, schema);
            const email = await trx
              .selectFrom("mailpulse_email")
              .select("campaign_id")
              .where("organization_id", "=", feedback.organizationId)
              .where("id", "=", feedback.emailId)
              .executeTakeFirst();
            if (!email) return undefined;
            if (!(await writeRow(trx, feedback, email.campaign_id))) {
              return { recorded: false, eventId: null, emailBounced: false };
            }
            let eventId: number | null = null;
            if (event) {
              const row = await trx
                .insertInto("mailpulse_event")
                .values({
                  organization_id: feedback.organizationId,
                  email_id: feedback.emailId,
                  campaign_id: email.campaign_id,
                  link_id: null,
                  type: event.type,
                  occurred_at: feedback.occurredAt.getTime(),
                  ip: null,
                  user_agent: null,
                  details: JSON.stringify(event.details),
                })
                .returning("id")
                .executeTakeFirstOrThrow();
              eventId = Number(row.id);
              await queueDeliveries(trx, eventId);
            }
            const emailBounced =
              feedback.kind === "bounce" && feedback.bounceType === "hard"
                ? await markBouncedWhenAllHard(trx, feedback.organizationId, feedback.emailId)
                : false;
            return { recorded: true, eventId, emailBounced };
          }),
        dialect.isLockConflict,
      );
    },

    async countSoftBounces(organizationId, recipient, since) {
      const row = await db
        .selectFrom("mailpulse_delivery_feedback")
        .select(sql<number | string>`count(*)`.as("count"))
        .where("organization_id", "=", organizationId)
        .where("recipient", "=", normalizeAddress(recipient))
        .where("kind", "=", "bounce")
        .where("bounce_type", "=", "soft")
        .where("occurred_at", ">=", since.getTime())
        .executeTakeFirst();
      return toCount(row?.count);
    },

    async totals(organizationId, scope) {
      let query = countedFeedback(organizationId);
      if (scope.campaignId !== undefined) query = query.where("f.campaign_id", "=", scope.campaignId);
      if (scope.recipient !== undefined) {
        query = query.where("f.recipient", "=", normalizeAddress(scope.recipient));
      }
      if (scope.sentWithin) {
        query = query
          .where("m.sent_at", ">=", scope.sentWithin.start.getTime())
          .where("m.sent_at", "<=", scope.sentWithin.end.getTime());
      }
      return toTotals(await query.select(totalsColumns).executeTakeFirst());
    },

    async dailyTotals(organizationId, campaignId, firstDay, lastDay) {
      const day = sql<number | string>`f.occurred_at / ${sql.lit(dayMs)}`;
      const rows = await countedFeedback(organizationId)
        .where("f.campaign_id", "=", campaignId)
        .where("f.occurred_at", ">=", firstDay * dayMs)
        .where("f.occurred_at", "<", (lastDay + 1) * dayMs)
        .select([day.as("day"), ...totalsColumns])
        .groupBy(day)
        .orderBy(day)
        .execute();
      return rows.map((row) => ({ day: Math.floor(Number(row.day)), ...toTotals(row) }));
    },

    async listForEmail(organizationId, emailId) {
      const rows = await db
        .selectFrom("mailpulse_delivery_feedback")
        .selectAll()
        .where("organization_id", "=", organizationId)
        .where("email_id", "=", emailId)
        .orderBy("id")
        .execute();
      return rows.map(toRecord);
    },
  };
}
