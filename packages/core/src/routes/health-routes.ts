import { performance } from "node:perf_hooks";
import { z } from "zod";
import { MailPulseError } from "../errors.js";
import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import type { Storage } from "../ports/storage.js";

/** `Health` in the OpenAPI document: what `GET /api/health` answers while storage is reachable. */
export const healthSchema = z
  .strictObject({
    status: z
      .enum(["ok", "degraded"])
      .describe(
        "`ok`: storage reachable and background work running. `degraded`: background work is not running.",
      ),
    storage: z.strictObject({
      reachable: z.literal(true),
      latencyMs: z.number().min(0).describe("How long one indexed read took, in milliseconds."),
    }),
    background: z.strictObject({
      started: z
        .boolean()
        .describe(
          "Whether `mailpulse.start()` runs the background jobs (webhook deliveries, purges) and `stop()` has not been called.",
        ),
    }),
    queues: z.strictObject({
      trackingHits: z.int().min(0).describe("Opens and clicks received and waiting to be written."),
    }),
  })
  .meta({ id: "Health" });

/** {@link healthSchema}'s type. */
export type Health = z.output<typeof healthSchema>;

/** What the health route reads. */
export interface HealthSources {
  storage: Pick<Storage, "organizations">;
  /** True while background jobs run (`start()` called, `stop()` not yet). */
  backgroundStarted(): boolean;
  /** Tracking hits queued and not yet written. */
  trackingHitsQueued(): number;
}

/** An id no organization has: the probe reads by primary key and finds nothing. */
const probeId = "mailpulse-health-probe";

/**
 * `GET /api/health`, without an API key, for load balancers and operators: 200 while the storage
 * answers (with `status: "degraded"` when background work is not running), 503 when it does not.
 * It names no secret, no host and no database: only booleans, a latency and a count.
 */
export function healthRoutes(sources: HealthSources) {
  return [
    defineRoute({
      method: "GET",
      path: "/health",
      auth: "none",
      docs: {
        tags: ["Health"],
        operationId: "getHealth",
        summary: "Health of this instance",
        description:
          "For load balancers and operators; no API key. `200` while the storage answers a read: `status` is `ok` when background work (webhook deliveries, purges) runs too, `degraded` when `mailpulse.start()` was not called or `stop()` was. `503` when the storage does not answer: take the instance out of rotation. The answer names no host, database or secret.",
        responses: {
          "200": jsonAnswer("The storage answered.", healthSchema),
          "503": errorDocs("The storage did not answer a read.", {
            unreachable: "Storage is unreachable",
          }),
        },
      },
      handle: async (): Promise<Health> => {
        const started = performance.now();
        try {
          await sources.storage.organizations.get(probeId);
        } catch {
          // The cause (a host name, a driver message) stays in the server's logs, never the answer.
          throw new MailPulseError("SERVICE_UNAVAILABLE", "Storage is unreachable");
        }
        const latencyMs = Math.round((performance.now() - started) * 100) / 100;
        const backgroundStarted = sources.backgroundStarted();
        return {
          status: backgroundStarted ? "ok" : "degraded",
          storage: { reachable: true, latencyMs },
          background: { started: backgroundStarted },
          queues: { trackingHits: sources.trackingHitsQueued() },
        };
      },
    }),
  ];
}
