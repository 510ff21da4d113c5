import { defineRoute } from "../http/route.js";
import { listEventsDocs } from "../openapi/operations/event-docs.js";
import type { EventService } from "../services/event-service.js";
import { type EventListInput, eventListSchema } from "../services/events/event-list-input.js";

/** `GET /api/events`: the organization's event log, for receivers catching up. */
export function eventRoutes(events: EventService) {
  return [
    defineRoute({
      method: "GET",
      path: "/events",
      docs: listEventsDocs,
      input: { from: "query", schema: eventListSchema },
      // The query as sent (strings): the service coerces and checks it.
      handle: ({ organizationId, input }) => events.list(organizationId, input as EventListInput),
    }),
  ];
}
