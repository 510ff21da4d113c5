import { defineRoute } from "../http/route.js";
import { listEventsDocs } from "../openapi/operations/event-docs.js";
import type { EventService } from "../services/event-service.js";

/** `GET /api/events`: the organization's event log, for receivers catching up. */
export function eventRoutes(events: EventService) {
  return [
    defineRoute({
      method: "GET",
      path: "/events",
      docs: listEventsDocs,
      input: { from: "query", schema: events.list.schema },
      handle: ({ organizationId, input }) => events.list.parsed(organizationId, input),
    }),
  ];
}
