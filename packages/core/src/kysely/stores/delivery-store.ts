import { type Kysely, type Selectable, sql } from "kysely";
import type {
  ClaimedDelivery,
  DeliveryRecord,
  DeliveryStore,
  WebhookEventType,
} from "../../ports/storage.js";
import type { MailPulseDialect } from "../dialect.js";
import { toCount, toDate, toDateOrNull } from "../mappers.js";
import type { MailPulseDatabase, WebhookDeliveryTable } from "../schema.js";

/** What names a delivery and the event it carries: shared by its record and its claim. */
function deliveryIdentity(row: Selectable<WebhookDeliveryTable>) {
  return {
    id: Number(row.id),
    organizationId: row.organization_id,
    webhookId: row.webhook_id,
    eventId: Number(row.event_id),
    eventType: row.event_type as WebhookEventType,
  };
}

function toDeliveryRecord(row: Selectable<WebhookDeliveryTable>): DeliveryRecord {
  const finished = row.status === "delivered" || row.status === "dead";
  return {
    ...deliveryIdentity(row),
    status: row.status,
    attempts: toCount(row.attempts),
    nextAttemptAt: finished ? null : toDate(row.next_attempt_at),
    lastAttemptAt: toDateOrNull(row.last_attempt_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: toDate(row.created_at),
    deliveredAt: toDateOrNull(row.delivered_at),
  };
}

function toClaimed(row: Selectable<WebhookDeliveryTable>): ClaimedDelivery {
  return {
    ...deliveryIdentity(row),
    attempt: toCount(row.attempts),
  };
}

/** {@link DeliveryStore} on Kysely: the outbox, claimed with leases. */
export function createDeliveryStore(db: Kysely<MailPulseDatabase>, dialect: MailPulseDialect): DeliveryStore {
  // The delivery as `find` and `requeue` answer it: undefined unless it belongs to that webhook
  // of that organization, so a foreign id reads as not found.
  const findDeliveryRow = (organizationId: string, webhookId: string, deliveryId: number) =>
    db
      .selectFrom("mailpulse_webhook_delivery")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .where("webhook_id", "=", webhookId)
      .where("id", "=", deliveryId)
      .executeTakeFirst();

  return {
    async claimDue(now, { limit, leaseMs, maxPerWebhook }) {
      const at = now.getTime();
      const perWebhook = maxPerWebhook ?? limit;
      // Due rows, numbered within their webhook: the claim takes each webhook's first rows
      // before any webhook's later ones, so one endpoint's backlog cannot fill a claim.
      const ranked = db
        .selectFrom("mailpulse_webhook_delivery as d")
        .innerJoin("mailpulse_webhook as w", (join) =>
          join.onRef("w.id", "=", "d.webhook_id").on("w.is_active", "=", 1),
        )
        .select(["d.id", "d.webhook_id", "d.next_attempt_at"])
        .select(
          sql<number>`row_number() over (partition by d.webhook_id order by d.next_attempt_at, d.id)`.as(
            "slot",
          ),
        )
        .where("d.status", "in", ["pending", "failed"])
        .where("d.next_attempt_at", "<=", at)
        .where((eb) => eb.or([eb("d.lease_expires_at", "is", null), eb("d.lease_expires_at", "<=", at)]));
      // Attempts under way per webhook, in any process: they use the webhook's slots.
      const leased = db
        .selectFrom("mailpulse_webhook_delivery")
        .select("webhook_id")
        .select((eb) => eb.fn.countAll<number>().as("in_flight"))
        .where("status", "in", ["pending", "failed"])
        .where("lease_expires_at", ">", at)
        .groupBy("webhook_id");
      const candidates = db
        .selectFrom(ranked.as("r"))
        .leftJoin(leased.as("l"), "l.webhook_id", "r.webhook_id")
        .select("r.id")
        .where(sql`r.slot + coalesce(l.in_flight, 0)`, "<=", perWebhook)
        .orderBy("r.slot")
        .orderBy("r.next_attempt_at")
        .orderBy("r.id")
        .limit(limit);
      // The due conditions again, on the row being locked: on PostgreSQL a row another claim
      // leased since this statement's snapshot is re-checked against them (and skipped).
      let due = db
        .selectFrom("mailpulse_webhook_delivery as d")
        .select("d.id")
        .where("d.id", "in", candidates)
        .where("d.status", "in", ["pending", "failed"])
        .where("d.next_attempt_at", "<=", at)
        .where((eb) => eb.or([eb("d.lease_expires_at", "is", null), eb("d.lease_expires_at", "<=", at)]));
      // Workers of other processes skip the rows this claim locks rather than wait for them.
      // (Raw: Kysely's `forUpdate(of)` mis-compiles an aliased table under `withSchema`.)
      if (dialect.skipLocked) due = due.modifyEnd(sql`for update of d skip locked`);
      const rows = await db
        .updateTable("mailpulse_webhook_delivery")
        .set((eb) => ({ lease_expires_at: at + leaseMs, attempts: eb("attempts", "+", 1) }))
        .where("id", "in", due)
        .returningAll()
        .execute();
      return rows.map(toClaimed).sort((a, b) => a.id - b.id);
    },

    async recordAttempt({ delivery, attempt, next, webhook }) {
      return db.transaction().execute(async (trx) => {
        const at = attempt.attemptedAt.getTime();
        const updated = await trx
          .updateTable("mailpulse_webhook_delivery")
          .set({
            status: next.state,
            lease_expires_at: null,
            last_attempt_at: at,
            last_status: attempt.status,
            last_error: attempt.error,
            ...(next.state === "failed" && { next_attempt_at: next.retryAt.getTime() }),
            ...(next.state === "delivered" && { delivered_at: at }),
          })
          .where("id", "=", delivery.id)
          // A lease lost to another worker (this one was too slow) changed the attempt count.
          .where("attempts", "=", delivery.attempt)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return false;
        await trx
          .insertInto("mailpulse_webhook_attempt")
          .values({
            delivery_id: delivery.id,
            organization_id: delivery.organizationId,
            attempted_at: at,
            status: attempt.status,
            duration_ms: Math.round(attempt.durationMs),
            error: attempt.error,
            response_excerpt: attempt.responseExcerpt,
          })
          .execute();
        await trx
          .updateTable("mailpulse_webhook")
          .set({
            failing_since: webhook.failingSince?.getTime() ?? null,
            ...(webhook.deactivate && { is_active: 0, updated_at: at }),
          })
          .where("id", "=", delivery.webhookId)
          .where("organization_id", "=", delivery.organizationId)
          .execute();
        return true;
      });
    },

    async releaseLeases(deliveries) {
      for (const delivery of deliveries) {
        await db
          .updateTable("mailpulse_webhook_delivery")
          // The claim counted an attempt that was never made.
          .set((eb) => ({ lease_expires_at: null, attempts: eb("attempts", "-", 1) }))
          .where("id", "=", delivery.id)
          .where("attempts", "=", delivery.attempt)
          .execute();
      }
    },

    async list(organizationId, webhookId, { before, limit }) {
      let query = db
        .selectFrom("mailpulse_webhook_delivery")
        .selectAll()
        .where("organization_id", "=", organizationId)
        .where("webhook_id", "=", webhookId);
      if (before !== undefined) query = query.where("id", "<", before);
      const rows = await query.orderBy("id", "desc").limit(limit).execute();
      return rows.map(toDeliveryRecord);
    },

    async find(organizationId, webhookId, deliveryId) {
      const row = await findDeliveryRow(organizationId, webhookId, deliveryId);
      if (!row) return undefined;
      const attempts = await db
        .selectFrom("mailpulse_webhook_attempt")
        .selectAll()
        .where("delivery_id", "=", deliveryId)
        .orderBy("id")
        .execute();
      return {
        delivery: toDeliveryRecord(row),
        attempts: attempts.map((attempt) => ({
          attemptedAt: toDate(attempt.attempted_at),
          status: attempt.status,
          durationMs: attempt.duration_ms,
          error: attempt.error,
          responseExcerpt: attempt.response_excerpt,
        })),
      };
    },

    async requeue(organizationId, webhookId, deliveryId, now) {
      const row = await db
        .updateTable("mailpulse_webhook_delivery")
        .set({ status: "pending", attempts: 0, next_attempt_at: now.getTime(), lease_expires_at: null })
        .where("organization_id", "=", organizationId)
        .where("webhook_id", "=", webhookId)
        .where("id", "=", deliveryId)
        .where("status", "in", ["failed", "dead"])
        // Not while a worker is attempting it: that attempt's outcome comes first.
        .where((eb) =>
          eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<=", now.getTime())]),
        )
        .returningAll()
        .executeTakeFirst();
      if (row) return { delivery: toDeliveryRecord(row), requeued: true };
      const current = await findDeliveryRow(organizationId, webhookId, deliveryId);
      return current && { delivery: toDeliveryRecord(current), requeued: false };
    },

    async purgeFinished(before) {
      // Attempts go with their delivery (foreign key cascade).
      const result = await db
        .deleteFrom("mailpulse_webhook_delivery")
        .where("status", "in", ["delivered", "dead"])
        .where("last_attempt_at", "<", before.getTime())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
