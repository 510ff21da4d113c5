import { defineRoute } from "../http/route.js";
import {
  createSendingDomainDocs,
  deleteSendingDomainDocs,
  deleteTrackingDomainDocs,
  getTrackingDomainDocs,
  listSendingDomainsDocs,
  setTrackingDomainDocs,
  verifySendingDomainDocs,
  verifyTrackingDomainDocs,
} from "../openapi/operations/domain-docs.js";
import type { SendingDomainService } from "../services/sending-domain-service.js";
import type { TrackingDomainService } from "../services/tracking-domain-service.js";
import { idParams } from "./id-params.js";

/** `/sending-domains` and `/organizations/domain` (the custom tracking domain). */
export function domainRoutes(sendingDomains: SendingDomainService, trackingDomain: TrackingDomainService) {
  return [
    defineRoute({
      method: "GET",
      path: "/sending-domains",
      docs: listSendingDomainsDocs,
      handle: async ({ organizationId }) => ({ domains: await sendingDomains.list(organizationId) }),
    }),
    defineRoute({
      method: "POST",
      path: "/sending-domains",
      docs: createSendingDomainDocs,
      input: { from: "body", schema: sendingDomains.create.schema },
      status: 201,
      handle: ({ organizationId, input }) => sendingDomains.create.parsed(organizationId, input),
    }),
    defineRoute({
      method: "POST",
      path: "/sending-domains/verify",
      docs: verifySendingDomainDocs,
      input: { from: "body", schema: sendingDomains.verify.schema },
      handle: ({ organizationId, input }) => sendingDomains.verify.parsed(organizationId, input),
    }),
    defineRoute({
      method: "DELETE",
      path: "/sending-domains/:id",
      docs: deleteSendingDomainDocs,
      params: idParams,
      handle: async ({ organizationId, params }) => {
        await sendingDomains.delete(organizationId, params.id);
        return { success: true };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/organizations/domain",
      docs: getTrackingDomainDocs,
      handle: ({ organizationId }) => trackingDomain.get(organizationId),
    }),
    defineRoute({
      method: "POST",
      path: "/organizations/domain",
      docs: setTrackingDomainDocs,
      input: { from: "body", schema: trackingDomain.set.schema },
      handle: ({ organizationId, input }) => trackingDomain.set.parsed(organizationId, input),
    }),
    defineRoute({
      method: "DELETE",
      path: "/organizations/domain",
      docs: deleteTrackingDomainDocs,
      handle: async ({ organizationId }) => {
        await trackingDomain.remove(organizationId);
        return { success: true };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/organizations/domain/verify",
      docs: verifyTrackingDomainDocs,
      handle: ({ organizationId }) => trackingDomain.verify(organizationId),
    }),
  ];
}
