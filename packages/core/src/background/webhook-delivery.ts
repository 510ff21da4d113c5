import { toWebhookEvent } from "../events/event-body.js";
import type { Logger } from "../logger.js";
import type { Clock } from "../ports/clock.js";
import type { ClaimedDelivery, Storage, StoredEvent, WebhookRecord } from "../ports/storage.js";
import type { WebhookResponse } from "../ports/webhook-sender.js";
import type { DeliverEvent } from "../webhooks/deliver-event.js";
import { planNextStep, type RetryPolicy } from "../webhooks/retry-schedule.js";

/** Options of {@link createWebhookDeliveryWorker}. */
export interface WebhookDeliveryWorkerOptions {
  storage: Storage;
  deliver: DeliverEvent;
  clock: Clock;
  logger: Logger;
  policy: RetryPolicy;
  /** Deliveries claimed (and attempted concurrently) at a time. */
  batchSize: number;
  /** How long a claim holds a row; longer than an attempt can take (the sender's timeout). */
  leaseMs: number;
  /** How often to look for due deliveries when the outbox is drained. */
  pollIntervalMs: number;
  /** Delivered and dead deliveries are deleted this long after their last attempt. */
  retentionMs: number;
}

/** The webhook delivery worker, run by `mailpulse.start()`. */
export interface WebhookDeliveryWorker {
  /** Delivers what is due now, then polls. Idempotent. */
  start(): void;
  /**
   * Claims and attempts the deliveries due now, one batch; resolves with how many it attempted.
   * What `start()` runs in a loop, and what tests call with a controlled clock.
   */
  runOnce(): Promise<number>;
  /** Deletes delivered and dead deliveries past the retention period; resolves with how many. */
  purge(): Promise<number>;
  /** Stops polling and waits for the attempts under way (each bounded by the sender's timeout). */
  stop(): Promise<void>;
}

const purgeIntervalMs = 60 * 60 * 1000;

/**
 * Builds the {@link WebhookDeliveryWorker}. Rows are claimed through the storage port with a
 * lease (SKIP LOCKED on PostgreSQL), so workers of several processes share the outbox and a
 * crashed worker's rows are claimed again when their lease expires. An attempt's outcome is
 * recorded only if the lease still holds, so one attempt is never recorded twice.
 */
export function createWebhookDeliveryWorker(options: WebhookDeliveryWorkerOptions): WebhookDeliveryWorker {
  const { storage, deliver, clock, logger, policy } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let started = false;
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
      response = await deliver(webhook, toWebhookEvent(event));
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

  async function runOnce(): Promise<number> {
    const claimed = await storage.deliveries.claimDue(clock.now(), {
      limit: options.batchSize,
      leaseMs: options.leaseMs,
    });
    if (claimed.length === 0) return 0;
    const webhookIds = [...new Set(claimed.map((delivery) => delivery.webhookId))];
    const webhooks = new Map((await storage.webhooks.findForDelivery(webhookIds)).map((w) => [w.id, w]));
    const events = await eventsOf(claimed);
    if (stopping) {
      await storage.deliveries.releaseLeases(claimed);
      return 0;
    }
    await Promise.all(
      claimed.map((delivery) =>
        attempt(delivery, webhooks.get(delivery.webhookId), events.get(delivery.eventId)).catch((error) =>
          // The lease expires and the row is claimed again.
          logger.error(`MailPulse: webhook delivery ${delivery.id} could not be recorded`, error),
        ),
      ),
    );
    return claimed.length;
  }

  async function purge(): Promise<number> {
    return storage.deliveries.purgeFinished(new Date(clock.now().getTime() - options.retentionMs));
  }

  async function tick(): Promise<void> {
    timer = undefined;
    running = (async () => {
      try {
        // A full batch means more may be due: go on at once.
        while (!stopping && (await runOnce()) === options.batchSize) {}
        if (!stopping && Date.now() - lastPurge >= purgeIntervalMs) {
          lastPurge = Date.now();
          await purge();
        }
      } catch (error) {
        logger.error("MailPulse: webhook delivery run failed", error);
      }
    })();
    await running;
    running = undefined;
    if (!stopping) {
      timer = setTimeout(tick, options.pollIntervalMs);
      timer.unref();
    }
  }

  return {
    start() {
      if (started || stopping) return;
      started = true;
      timer = setTimeout(tick, 0);
      timer.unref();
    },
    runOnce,
    purge,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await running;
    },
  };
}
