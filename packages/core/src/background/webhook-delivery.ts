import { toWebhookEvent } from "../events/event-body.js";
import type { Logger } from "../logger.js";
import type { Clock } from "../ports/clock.js";
import type { ClaimedDelivery, Storage, StoredEvent, WebhookRecord } from "../ports/storage.js";
import type { WebhookResponse } from "../ports/webhook-sender.js";
import type { DeliverEvent } from "../webhooks/deliver-event.js";
import { planNextStep, type RetryPolicy } from "../webhooks/retry-schedule.js";
import type { BackgroundJob } from "./background-job.js";
import { createPeriodicJob } from "./periodic-job.js";
import type { Scheduler } from "./scheduler.js";

/** Options of {@link createWebhookDeliveryWorker}. */
export interface WebhookDeliveryWorkerOptions {
  storage: Storage;
  deliver: DeliverEvent;
  clock: Clock;
  logger: Logger;
  policy: RetryPolicy;
  /** Deliveries claimed (and attempted concurrently) at a time: the worker's attempts under way. */
  batchSize: number;
  /**
   * Attempts under way to one webhook at most (its rows leased, in any process). Default 4.
   * Keeps a slow or failing endpoint from taking every slot of the worker.
   */
  maxPerWebhook?: number;
  /** How long a claim holds a row; longer than an attempt can take (the sender's timeout). */
  leaseMs: number;
  /** How often to look for due deliveries when the outbox is drained. */
  pollIntervalMs: number;
  /** Delivered and dead deliveries are deleted this long after their last attempt. */
  retentionMs: number;
  /** When the next pass runs. Default: unref'd timers (`scheduler.ts`). */
  scheduler?: Scheduler;
}

/**
 * The webhook delivery worker, run by `mailpulse.start()`. `start()` resolves at once; the first
 * pass runs in the background, and the next `pollIntervalMs` after each pass ends. `runOnce()` is
 * one pass: keeps `batchSize` attempts under way, claiming as slots free up, until nothing is due
 * or under way, then the purge if an hour has passed by the injected clock since the last one; it
 * resolves with how many deliveries it attempted. `stop()` stops polling and waits for the attempts under way (each bounded by the
 * sender's timeout); deliveries claimed after it are released, not attempted.
 */
export interface WebhookDeliveryWorker extends BackgroundJob<number> {
  /**
   * Claims and attempts the deliveries due now, one batch; resolves with how many it attempted.
   * What a pass repeats, and what `mailpulse.deliverWebhooks()` calls.
   */
  deliverBatch(): Promise<number>;
  /** Deletes delivered and dead deliveries past the retention period; resolves with how many. */
  purge(): Promise<number>;
}

const purgeIntervalMs = 60 * 60 * 1000;

/** Resolves after `ms`; unref'd, so a waiting worker does not keep the process alive. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Builds the {@link WebhookDeliveryWorker}. Rows are claimed through the storage port with a
 * lease (SKIP LOCKED on PostgreSQL), so workers of several processes share the outbox and a
 * crashed worker's rows are claimed again when their lease expires. An attempt's outcome is
 * recorded only if the lease still holds, so one attempt is never recorded twice.
 */
export function createWebhookDeliveryWorker(options: WebhookDeliveryWorkerOptions): WebhookDeliveryWorker {
  const { storage, deliver, clock, logger, policy } = options;
  let stopping = false;
  let lastPurge = Number.NEGATIVE_INFINITY;

  async function eventsOf(claimed: readonly ClaimedDelivery[]): Promise<Map<number, StoredEvent>> {
    const byOrganization = new Map<string, number[]>();
    for (const delivery of claimed) {
      const ids = byOrganization.get(delivery.organizationId) ?? [];
      ids.push(delivery.eventId);
      byOrganization.set(delivery.organizationId, ids);
    }
    const events = new Map<number, StoredEvent>();
    for (const [organizationId, ids] of byOrganization) {
      for (const event of await storage.events.findByIds(organizationId, [...new Set(ids)])) {
        events.set(event.id, event);
      }
    }
    return events;
  }

  async function attempt(
    delivery: ClaimedDelivery,
    webhook: WebhookRecord | undefined,
    event: StoredEvent | undefined,
  ): Promise<void> {
    let response: WebhookResponse;
    let plan: ReturnType<typeof planNextStep>;
    if (!webhook || !event) {
      // Deleted since it was queued (its email or webhook): nothing left to deliver.
      response = {
        ok: false,
        status: null,
        durationMs: 0,
        responseExcerpt: "",
        retryAfterMs: null,
        error: "the event or webhook no longer exists",
      };
      plan = {
        next: { state: "dead" },
        webhook: { failingSince: webhook?.failingSince ?? null, deactivate: false },
      };
    } else {
      response = await deliver(webhook, toWebhookEvent(event)).catch((error: unknown) => ({
        // Nothing was sent (a secret that cannot be opened with this key, a sender that threw):
        // a failed attempt like any other, so the schedule ends it instead of a retry every lease.
        ok: false,
        status: null,
        durationMs: 0,
        responseExcerpt: "",
        retryAfterMs: null,
        error: `not sent: ${error instanceof Error ? error.message : String(error)}`,
      }));
      plan = planNextStep(response, delivery.attempt, webhook, clock.now(), policy);
    }
    const recorded = await storage.deliveries.recordAttempt({
      delivery,
      attempt: {
        attemptedAt: clock.now(),
        status: response.status,
        durationMs: response.durationMs,
        error: response.error,
        responseExcerpt: response.responseExcerpt === "" ? null : response.responseExcerpt,
      },
      ...plan,
    });
    if (!recorded) {
      logger.info(`MailPulse: webhook delivery ${delivery.id} was claimed again before its attempt ended`);
    } else if (plan.webhook.deactivate && webhook?.isActive) {
      logger.info(
        `MailPulse: webhook ${webhook.id} (${webhook.url}) deactivated: ${
          response.status === 410 ? "its receiver answered 410 Gone" : "every delivery failed for 5 days"
        }`,
      );
    }
  }

  const maxPerWebhook = options.maxPerWebhook ?? 4;

  /**
   * Claims up to `limit` due deliveries, fairly across webhooks and within each webhook's cap, and
   * starts their attempts; resolves with one promise per attempt (settled when it is recorded).
   */
  async function claimAndStart(limit: number): Promise<Promise<void>[]> {
    const claimed = await storage.deliveries.claimDue(clock.now(), {
      limit,
      leaseMs: options.leaseMs,
      maxPerWebhook,
    });
    if (claimed.length === 0) return [];
    const webhookIds = [...new Set(claimed.map((delivery) => delivery.webhookId))];
    const webhooks = new Map((await storage.webhooks.findForDelivery(webhookIds)).map((w) => [w.id, w]));
    const events = await eventsOf(claimed);
    if (stopping) {
      await storage.deliveries.releaseLeases(claimed);
      return [];
    }
    return claimed.map((delivery) =>
      attempt(delivery, webhooks.get(delivery.webhookId), events.get(delivery.eventId)).catch((error) =>
        // The lease expires and the row is claimed again.
        logger.error(`MailPulse: webhook delivery ${delivery.id} could not be recorded`, error),
      ),
    );
  }

  async function deliverBatch(): Promise<number> {
    const attempts = await claimAndStart(options.batchSize);
    await Promise.all(attempts);
    return attempts.length;
  }

  async function purge(): Promise<number> {
    return storage.deliveries.purgeFinished(new Date(clock.now().getTime() - options.retentionMs));
  }

  /**
   * Keeps up to `batchSize` attempts under way: claims as slots free up, not batch by batch, so
   * a slow receiver holds only its own slots (at most `maxPerWebhook`) while deliveries to other
   * endpoints are claimed and posted beside it. Looks again at least every `pollIntervalMs` while
   * attempts are under way, so a delivery queued meanwhile waits no longer than that. Ends when
   * nothing is due and nothing is under way (or on stop, after the attempts under way).
   */
  async function pass(): Promise<number> {
    let attempted = 0;
    const underWay = new Set<Promise<void>>();
    while (!stopping) {
      const free = options.batchSize - underWay.size;
      let claimedAll = false;
      if (free > 0) {
        const started = await claimAndStart(free);
        attempted += started.length;
        claimedAll = started.length === free;
        for (const running of started) {
          const tracked = running.finally(() => underWay.delete(tracked));
          underWay.add(tracked);
        }
      }
      if (underWay.size === 0) break;
      // Every slot was filled: more may be due once one frees. Otherwise look again after a
      // poll interval, or as soon as an attempt ends (its webhook may have more).
      if (claimedAll || free <= 0) await Promise.race(underWay);
      else await Promise.race([...underWay, delay(options.pollIntervalMs)]);
    }
    await Promise.all(underWay);
    // The clock, not Date.now(): a test that moves the clock an hour sees the next purge.
    const now = clock.now().getTime();
    if (!stopping && now - lastPurge >= purgeIntervalMs) {
      lastPurge = now;
      await purge();
    }
    return attempted;
  }

  const loop = createPeriodicJob({
    name: "webhook delivery worker",
    run: pass,
    everyMs: options.pollIntervalMs,
    logger,
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
  });

  return {
    name: loop.name,
    start: loop.start,
    runOnce: loop.runOnce,
    deliverBatch,
    purge,
    async stop() {
      stopping = true;
      await loop.stop();
    },
  };
}
