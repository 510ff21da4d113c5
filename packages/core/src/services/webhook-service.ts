import { randomBytes } from "node:crypto";
import { MailPulseError, notFound } from "../errors.js";
import type { WebhookEvent } from "../events/event-body.js";
import type {
  DeliveryAttemptRecord,
  DeliveryRecord,
  WebhookEventType,
  WebhookRecord,
} from "../ports/storage.js";
import type { SecretBox } from "../util/secret-box.js";
import type { DeliverEvent } from "../webhooks/deliver-event.js";
import type { ServiceDeps } from "./service-context.js";
import { type ValidatedMethod, validatedMethod } from "./validation/validated-method.js";
import type {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookTestResult,
} from "./webhooks/webhook-answers.js";
import { createWebhookSchema, updateWebhookSchema } from "./webhooks/webhook-input.js";

export type { Webhook, WebhookDelivery, WebhookDeliveryPage, WebhookTestResult };

/** One attempt of a delivery. */
export interface WebhookDeliveryAttempt {
  attemptedAt: string;
  status: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

/** Checks a webhook URL: syntax, and that it is not (and does not resolve to) a private address. */
export type WebhookUrlCheck = (url: string) => Promise<string>;

/** Options of {@link createWebhookService}. */
export interface WebhookServiceOptions {
  secrets: SecretBox;
  checkUrl: WebhookUrlCheck;
  deliver: DeliverEvent;
  /** Webhooks an organization may have. */
  maxWebhooks: number;
  /** How long deliveries are also signed with a rotated-out secret. */
  rotationOverlapMs: number;
  /**
   * Called after each webhook is created: `createMailPulse` logs a warning there while the
   * delivery worker is not running (`start()` never called), since its deliveries would stay
   * `pending` without a word (issue 30). Default: nothing.
   */
  onCreated?: (webhook: Webhook) => void;
}

/** Webhooks of an organization and their deliveries. */
export interface WebhookService {
  list(organizationId: string): Promise<Webhook[]>;
  /** VALIDATION_FAILED for a bad or private URL, unknown events, or past the per-organization limit. */
  create: ValidatedMethod<[organizationId: string], typeof createWebhookSchema, Webhook>;
  /** NOT_FOUND for unknown or foreign ids. */
  update: ValidatedMethod<[organizationId: string, id: string], typeof updateWebhookSchema, Webhook>;
  /** Deletes it with its deliveries; NOT_FOUND for unknown or foreign ids. */
  delete(organizationId: string, id: string): Promise<void>;
  /** A new secret; the old one keeps signing (as a second signature) for `rotationOverlapMs`. */
  rotateSecret(organizationId: string, id: string): Promise<Webhook>;
  /** Sends a signed test event now (not stored, not retried) and reports the receiver's answer. */
  test(organizationId: string, id: string): Promise<WebhookTestResult>;
  /** Deliveries, newest first. */
  listDeliveries(
    organizationId: string,
    id: string,
    page?: { before?: string; limit?: number },
  ): Promise<WebhookDeliveryPage>;
  /** One delivery with every attempt, oldest first. */
  getDelivery(
    organizationId: string,
    id: string,
    deliveryId: string,
  ): Promise<WebhookDelivery & { attemptLog: WebhookDeliveryAttempt[] }>;
  /** Queues a failed or dead delivery again, due now; CONFLICT when it is pending or delivered. */
  retryDelivery(organizationId: string, id: string, deliveryId: string): Promise<WebhookDelivery>;
}

/** A webhook secret: 32 characters of base64url from 24 random bytes (192 bits). */
export function createWebhookSecret(): string {
  return randomBytes(24).toString("base64url");
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

function toDelivery(record: DeliveryRecord): WebhookDelivery {
  return {
    id: String(record.id),
    eventId: `evt_${record.eventId}`,
    type: record.eventType,
    state: record.status,
    attempts: record.attempts,
    lastStatus: record.lastStatus,
    lastError: record.lastError,
    lastAttemptAt: iso(record.lastAttemptAt),
    nextAttemptAt: iso(record.nextAttemptAt),
    createdAt: record.createdAt.toISOString(),
    deliveredAt: iso(record.deliveredAt),
  };
}

function toAttempt(attempt: DeliveryAttemptRecord): WebhookDeliveryAttempt {
  return { ...attempt, attemptedAt: attempt.attemptedAt.toISOString() };
}

/** A delivery id from the path: a positive integer, or NOT_FOUND (never a database error). */
function deliveryIdOf(raw: string | undefined): number {
  const id = raw !== undefined && /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw notFound("Delivery");
  return id;
}

/**
 * The type-specific fields of a test event's `data` (docs/webhooks.md describes each): the
 * lifecycle events' own fields, so a test exercises a receiver's whole handler of them.
 */
const testEventExtras: Record<WebhookEventType, Partial<WebhookEvent["data"]>> = {
  EMAIL_SENT: {},
  EMAIL_OPENED: {},
  EMAIL_CLICKED: {},
  EMAIL_BOUNCED: {
    recipient: "recipient@example.com",
    bounceType: "hard",
    status: "5.1.1",
    diagnostic: "smtp; 550 5.1.1 user unknown (MailPulse webhook test)",
  },
  EMAIL_COMPLAINED: { recipient: "recipient@example.com", feedbackType: "abuse" },
  CONTACT_UNSUBSCRIBED: { recipient: "recipient@example.com", source: "api" },
};

/** Builds the {@link WebhookService}. */
export function createWebhookService(deps: ServiceDeps, options: WebhookServiceOptions): WebhookService {
  const { storage, clock } = deps;
  const { secrets } = options;

  const toWebhook = (record: WebhookRecord): Webhook => ({
    id: record.id,
    url: record.url,
    events: record.events,
    secret: secrets.open(record.secret),
    isActive: record.isActive,
    organizationId: record.organizationId,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  });

  async function found(organizationId: string, id: string): Promise<WebhookRecord> {
    const webhook = await storage.webhooks.find(organizationId, id);
    if (!webhook) throw notFound("Webhook");
    return webhook;
  }

  return {
    async list(organizationId) {
      return (await storage.webhooks.list(organizationId)).map(toWebhook);
    },

    create: validatedMethod(
      createWebhookSchema,
      "webhooks.create",
      { leading: 1 },
      async (organizationId: string, input) => {
        const url = await options.checkUrl(input.url);
        const now = clock.now();
        const record: WebhookRecord = {
          id: deps.createId(),
          organizationId,
          url,
          events: input.events,
          secret: secrets.seal(createWebhookSecret()),
          previousSecret: null,
          previousSecretExpiresAt: null,
          isActive: true,
          failingSince: null,
          createdAt: now,
          updatedAt: now,
        };
        if (!(await storage.webhooks.create(record, options.maxWebhooks))) {
          throw new MailPulseError(
            "VALIDATION_FAILED",
            `An organization can have at most ${options.maxWebhooks} webhooks: delete one before adding another`,
          );
        }
        const webhook = toWebhook(record);
        options.onCreated?.(webhook);
        return webhook;
      },
    ),

    update: validatedMethod(
      updateWebhookSchema,
      "webhooks.update",
      { leading: 2 },
      async (organizationId: string, id: string, input) => {
        await found(organizationId, id);
        const url = input.url === undefined ? undefined : await options.checkUrl(input.url);
        const updated = await storage.webhooks.update(organizationId, id, {
          url,
          events: input.events,
          isActive: input.isActive,
          updatedAt: clock.now(),
        });
        if (!updated) throw notFound("Webhook");
        return toWebhook(updated);
      },
    ),

    async delete(organizationId, id) {
      if (!(await storage.webhooks.delete(organizationId, id))) throw notFound("Webhook");
    },

    async rotateSecret(organizationId, id) {
      const current = await found(organizationId, id);
      const now = clock.now();
      const updated = await storage.webhooks.update(organizationId, id, {
        secret: secrets.seal(createWebhookSecret()),
        previousSecret: current.secret,
        previousSecretExpiresAt: new Date(now.getTime() + options.rotationOverlapMs),
        updatedAt: now,
      });
      if (!updated) throw notFound("Webhook");
      return toWebhook(updated);
    },

    async test(organizationId, id) {
      const webhook = await found(organizationId, id);
      const now = clock.now();
      const event: WebhookEvent & { test: true } = {
        id: `evt_test_${randomBytes(9).toString("base64url")}`,
        type: webhook.events[0] ?? "EMAIL_SENT",
        createdAt: now.toISOString(),
        test: true,
        data: {
          emailId: "00000000-0000-7000-8000-000000000000",
          emailTrackingId: "test",
          from: "MailPulse <test@mailpulse.invalid>",
          to: ["recipient@example.com"],
          subject: "MailPulse webhook test",
          campaign: null,
          metadata: null,
          providerMessageId: null,
          tags: [],
          ...testEventExtras[webhook.events[0] ?? "EMAIL_SENT"],
        },
      };
      const response = await options.deliver(webhook, event);
      return {
        success: response.ok,
        status: response.status,
        durationMs: response.durationMs,
        error: response.error,
        responseExcerpt: response.responseExcerpt,
      };
    },

    async listDeliveries(organizationId, id, page = {}) {
      await found(organizationId, id);
      const limit = page.limit ?? 50;
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100) {
        throw new MailPulseError(
          "VALIDATION_FAILED",
          'Invalid request query: "limit": must be an integer from 1 to 100',
          {
            issues: [{ path: ["limit"], message: "must be an integer from 1 to 100" }],
          },
        );
      }
      let before: number | undefined;
      if (page.before !== undefined) {
        before = /^[1-9][0-9]{0,15}$/.test(page.before) ? Number(page.before) : Number.NaN;
        if (!Number.isSafeInteger(before)) {
          throw new MailPulseError(
            "VALIDATION_FAILED",
            'Invalid request query: "before" is not a delivery id',
            {
              issues: [{ path: ["before"], message: "is not a delivery id" }],
            },
          );
        }
      }
      const records = await storage.deliveries.list(organizationId, id, { before, limit });
      const last = records.at(-1);
      return {
        data: records.map(toDelivery),
        nextCursor: last && records.length === limit ? String(last.id) : null,
      };
    },

    async getDelivery(organizationId, id, deliveryId) {
      const found = await storage.deliveries.find(organizationId, id, deliveryIdOf(deliveryId));
      if (!found) throw notFound("Delivery");
      return { ...toDelivery(found.delivery), attemptLog: found.attempts.map(toAttempt) };
    },

    async retryDelivery(organizationId, id, deliveryId) {
      const outcome = await storage.deliveries.requeue(
        organizationId,
        id,
        deliveryIdOf(deliveryId),
        clock.now(),
      );
      if (!outcome) throw notFound("Delivery");
      const { delivery, requeued } = outcome;
      if (!requeued) {
        const state =
          delivery.status === "failed" || delivery.status === "dead" ? "being attempted" : delivery.status;
        throw new MailPulseError(
          "CONFLICT",
          `Only failed or dead deliveries can be retried; this one is ${state}`,
        );
      }
      return toDelivery(delivery);
    },
  };
}
