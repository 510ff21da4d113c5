/**
 * The webhook outbox as the delivery worker and the deliveries API see it. Rows are written by
 * the email and tracking stores, in the transaction of their event; this store claims, records
 * and lists them.
 */
import type { WebhookEventType } from "./storage-webhooks.js";

/** `failed` will be retried at `nextAttemptAt`; `dead` will not (attempts exhausted, or a 410). */
export type DeliveryStatus = "pending" | "delivered" | "failed" | "dead";

/** One queued delivery of an event to a webhook. */
export interface DeliveryRecord {
  id: number;
  organizationId: string;
  webhookId: string;
  /** The event log row delivered (see `EventStore`). */
  eventId: number;
  eventType: WebhookEventType;
  status: DeliveryStatus;
  /** Attempts made (a claimed attempt counts from its claim). */
  attempts: number;
  /** When the next attempt is due; null once delivered or dead. */
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** One logged attempt. */
export interface DeliveryAttemptRecord {
  attemptedAt: Date;
  /** The receiver's status; null when no answer came (timeout, refused, blocked address). */
  status: number | null;
  durationMs: number;
  error: string | null;
  /** The first KiB of the receiver's answer. */
  responseExcerpt: string | null;
}

/** A delivery a worker holds a lease on, with the number of the attempt it is making. */
export interface ClaimedDelivery {
  id: number;
  organizationId: string;
  webhookId: string;
  eventId: number;
  eventType: WebhookEventType;
  /** 1 for the first attempt. */
  attempt: number;
}

/** What came of an attempt, and what to do next. */
export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  attempt: DeliveryAttemptRecord;
  next: { state: "delivered" } | { state: "failed"; retryAt: Date } | { state: "dead" };
  /** Changes to the webhook's health: a success clears `failingSince`, a failure starts it. */
  webhook: { failingSince: Date | null; deactivate: boolean };
}

/** The outbox. */
export interface DeliveryStore {
  /**
   * Leases up to `limit` due deliveries (pending or failed, due by `now`, of active webhooks, not
   * leased or with an expired lease) until `now + leaseMs`, counting the attempt. Concurrent
   * callers, in this process or others on the same database, never get the same row.
   *
   * Fair across endpoints: each webhook's earliest due rows come before any webhook's later ones,
   * and with `maxPerWebhook` no webhook gets more rows than that minus its rows leased now (its
   * attempts under way, in any process). Default: `limit` (no cap per webhook). Two processes
   * claiming at the same instant may together exceed the cap; each alone never does.
   */
  claimDue(
    now: Date,
    options: { limit: number; leaseMs: number; maxPerWebhook?: number },
  ): Promise<ClaimedDelivery[]>;
  /**
   * Logs the attempt and applies its outcome, unless the lease was lost (the row was claimed
   * again since): then nothing is written and the result is `false`.
   */
  recordAttempt(outcome: AttemptOutcome): Promise<boolean>;
  /** Gives back leases not used (a stopping worker), so the rows are due again at once. */
  releaseLeases(deliveries: readonly ClaimedDelivery[]): Promise<void>;
  /** Deliveries of a webhook, newest first, before the delivery id `before` when given. */
  list(
    organizationId: string,
    webhookId: string,
    page: { before?: number; limit: number },
  ): Promise<DeliveryRecord[]>;
  /** A delivery with its attempts, oldest first; `undefined` when unknown or foreign. */
  find(
    organizationId: string,
    webhookId: string,
    deliveryId: number,
  ): Promise<{ delivery: DeliveryRecord; attempts: DeliveryAttemptRecord[] } | undefined>;
  /**
   * Makes a failed or dead delivery due at `now` again (a new series of attempts, unless an
   * attempt is under way). `requeued: false` with the row as it is otherwise; `undefined` when
   * unknown or foreign.
   */
  requeue(
    organizationId: string,
    webhookId: string,
    deliveryId: number,
    now: Date,
  ): Promise<{ delivery: DeliveryRecord; requeued: boolean } | undefined>;
  /** Deletes delivered and dead deliveries (and their attempts) last attempted before `before`. */
  purgeFinished(before: Date): Promise<number>;
}
