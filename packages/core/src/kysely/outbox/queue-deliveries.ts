import { type Kysely, sql } from "kysely";
import { storedEventTypes, webhookEventTypeOf } from "../../events/event-types.js";
import type { MailPulseDatabase } from "../schema.js";

/** Every event log type with its webhook event name (fixed identifiers, inlined into the SQL). */
const eventTypePairs = storedEventTypes.map((type) => [type, webhookEventTypeOf(type)] as const);

/**
 * The webhook event name of an event row's `type`, as SQL. One mapping for the outbox writes and
 * the subscription match below; `webhookEventTypeOf` is its TypeScript twin.
 */
export const webhookEventTypeSql = (typeColumn: string) =>
  sql<string>`case ${sql.ref(typeColumn)} ${sql.raw(
    eventTypePairs.map(([stored, name]) => `when '${stored}' then '${name}'`).join(" "),
  )} end`;

/**
 * `LIKE` pattern matching a webhook's `events` (a JSON array of names) that holds the event row's
 * type. Names are fixed identifiers, so the quoted match is exact.
 */
const subscribedPattern = (typeColumn: string) =>
  sql<string>`case ${sql.ref(typeColumn)} ${sql.raw(
    eventTypePairs.map(([stored, name]) => `when '${stored}' then '%"${name}"%'`).join(" "),
  )} end`;

/**
 * Queues one delivery per (event row with id >= `fromEventId`, active webhook of its organization
 * subscribed to its type), inside the caller's transaction, right after the caller appended those
 * rows. One statement, whatever the number of events and webhooks; nothing to do costs one index
 * probe per event. Only for callers whose just-written rows are the ids from `fromEventId` on:
 * true inside a SQLite write transaction (one writer) and for a single id.
 */
export async function queueDeliveries(
  trx: Kysely<MailPulseDatabase>,
  fromEventId: number,
  toEventId: number = fromEventId,
): Promise<void> {
  await queueDeliveriesQuery(trx, fromEventId, toEventId).execute();
}

/** The statement of {@link queueDeliveries}, unexecuted (SQLite's tracking writer compiles it once). */
export function queueDeliveriesQuery(trx: Kysely<MailPulseDatabase>, fromEventId: number, toEventId: number) {
  return trx
    .insertInto("mailpulse_webhook_delivery")
    .columns([
      "organization_id",
      "webhook_id",
      "event_id",
      "event_type",
      "status",
      "attempts",
      "next_attempt_at",
      "created_at",
    ])
    .expression((eb) =>
      eb
        .selectFrom("mailpulse_event as e")
        .innerJoin("mailpulse_webhook as w", (join) =>
          join
            .onRef("w.organization_id", "=", "e.organization_id")
            .on("w.is_active", "=", 1)
            .on("w.events", "like", subscribedPattern("e.type")),
        )
        .select([
          "e.organization_id",
          "w.id",
          "e.id as event_id",
          webhookEventTypeSql("e.type").as("event_type"),
          sql.lit("pending").as("status"),
          sql.lit(0).as("attempts"),
          "e.occurred_at as next_attempt_at",
          "e.occurred_at as created_at",
        ])
        .where("e.id", ">=", fromEventId)
        .where("e.id", "<=", toEventId),
    );
}
