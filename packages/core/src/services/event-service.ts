import { MailPulseError } from "../errors.js";
import { parseEventId, storedEventTypeOf, toWebhookEvent, type WebhookEvent } from "../events/event-body.js";
import type { EventPosition } from "../ports/storage.js";
import { decodeEventCursor, encodeEventCursor } from "./events/event-cursor.js";
import { type EventListInput, eventListSchema } from "./events/event-list-input.js";
import type { ServiceDeps } from "./service-context.js";
import { parseInput } from "./validation/parse-input.js";

/** A page of `GET /api/events`. */
export interface EventPage {
  /** Oldest first. */
  data: WebhookEvent[];
  /**
   * Where the next page starts when this one is full; null when it reached the newest event.
   * To follow new events later, page on from the last event's id (`after=evt_...`).
   */
  nextCursor: string | null;
}

/** The organization's event log, for receivers catching up on what their webhooks missed. */
export interface EventService {
  /**
   * Events after `after` (a cursor or an event id), oldest first. VALIDATION_FAILED for a bad
   * query or an `after` that is neither a cursor nor an event of the organization.
   */
  list(organizationId: string, input?: EventListInput): Promise<EventPage>;
}

/** Builds the {@link EventService}. */
export function createEventService(deps: ServiceDeps): EventService {
  const { storage } = deps;

  async function positionAfter(organizationId: string, after: string): Promise<EventPosition> {
    const eventId = parseEventId(after);
    if (eventId !== undefined) {
      const [event] = await storage.events.findByIds(organizationId, [eventId]);
      if (event) return event.position;
    } else {
      const position = decodeEventCursor(after);
      if (position) return position;
    }
    throw new MailPulseError(
      "VALIDATION_FAILED",
      `Invalid query: "after" is neither a cursor MailPulse issued nor the id of one of your events`,
      { issues: [{ path: ["after"], message: "is neither a cursor nor an event id of the organization" }] },
    );
  }

  return {
    async list(organizationId, rawInput = {}) {
      const input = parseInput(eventListSchema, rawInput, "events.list");
      const after = input.after === undefined ? undefined : await positionAfter(organizationId, input.after);
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
      });
      const last = events.at(-1);
      return {
        data: events.map(toWebhookEvent),
        nextCursor: last && events.length === input.limit ? encodeEventCursor(last.position) : null,
      };
    },
  };
}
