import { MailPulseError } from "../errors.js";
import { eventIdOf, parseEventId, storedEventTypeOf, toWebhookEvent } from "../events/event-body.js";
import { eventListSchema } from "./events/event-list-input.js";
import type { ServiceDeps } from "./service-context.js";
import { type ValidatedMethod, validatedMethod } from "./validation/validated-method.js";
import type { EventPage } from "./webhooks/webhook-answers.js";

export type { EventPage };

/** The organization's event log, for receivers catching up on what their webhooks missed. */
export interface EventService {
  /**
   * Events after the event `after` (an `evt_` id), oldest first. VALIDATION_FAILED for a bad
   * query. Any event id is a position: one of another organization lists this one's after it.
   */
  list: ValidatedMethod<[organizationId: string], typeof eventListSchema, EventPage, true>;
}

/** Builds the {@link EventService}. */
export function createEventService(deps: ServiceDeps): EventService {
  const { storage } = deps;

  return {
    list: validatedMethod(
      eventListSchema,
      "events.list",
      { leading: 1, whenOmitted: {} },
      async (organizationId: string, input) => {
        const after = input.after === undefined ? undefined : parseEventId(input.after);
        if (input.after !== undefined && after === undefined) {
          throw new MailPulseError(
            "VALIDATION_FAILED",
            'Invalid input of events.list: "after" is not an event id',
            {
              issues: [{ path: ["after"], message: "is not an event id (evt_...)" }],
            },
          );
        }
        let emailId: string | undefined;
        if (input.emailTrackingId !== undefined) {
          const [email] = await storage.tracking.findEmails([input.emailTrackingId]);
          // Unknown and foreign tracking ids list nothing, as an email without events would.
          if (!email || email.organizationId !== organizationId) return { data: [], nextCursor: null };
          emailId = email.id;
        }
        const events = await storage.events.list(organizationId, {
          after,
          limit: input.limit,
          types: input.type?.map(storedEventTypeOf),
          emailId,
          tag: input.tag,
        });
        const last = events.at(-1);
        return {
          data: events.map(toWebhookEvent),
          nextCursor: last && events.length === input.limit ? eventIdOf(last.id) : null,
        };
      },
    ),
  };
}
