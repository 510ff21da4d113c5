/** The endpoints the statistics benchmark times, as in-process service calls. */
import type { Storage } from "@mailpulse/core";
import { createTestClock } from "@mailpulse/testing";
import { createCampaignService } from "../../packages/core/src/services/campaign-service.js";
import { createContactService } from "../../packages/core/src/services/contact-service.js";
import { createStatsService } from "../../packages/core/src/services/stats-service.js";
import { benchNow, contactAddress, type Dataset } from "./dataset.js";

/** The campaign, contact and search the benchmark asks about (fixed, so runs compare). */
export const benchTargets = {
  campaignIndex: 17,
  contactIndex: 1234,
  // Matches one contact: the filter has to look at every contact, the worst case for a search.
  search: "contact4242@",
  range90: "2026-04-01,2026-06-29",
} as const;

/** A named call of one endpoint. */
export interface BenchEndpoint {
  name: string;
  call: () => Promise<unknown>;
}

/** The services behind the endpoints, over `storage`, at the fixture's "now". */
export function benchServices(storage: Storage) {
  const deps = { storage, clock: createTestClock(new Date(benchNow)), createId: () => "unused" };
  return {
    campaigns: createCampaignService(deps, { limits: () => ({}), detailEmailLimit: 500 }),
    stats: createStatsService(deps),
    contacts: createContactService(deps),
  };
}

/** The endpoints over `storage`, which holds `data`. */
export function benchEndpoints(storage: Storage, data: Dataset): BenchEndpoint[] {
  const { campaigns, stats, contacts } = benchServices(storage);
  const org = data.organizationId;
  const campaignId = data.campaignIds[benchTargets.campaignIndex] ?? "";
  const address = contactAddress(benchTargets.contactIndex);
  return [
    { name: "campaign detail", call: () => campaigns.get(org, campaignId) },
    { name: "period stats 30d", call: () => stats.campaign(org, { campaignId, period: "30d" }) },
    {
      name: "period stats 90-day range",
      call: () => stats.campaign(org, { campaignId, period: benchTargets.range90 }),
    },
    { name: "global stats", call: () => stats.global(org) },
    { name: "contacts first page", call: () => contacts.list(org) },
    { name: "contacts search", call: () => contacts.list(org, { search: benchTargets.search }) },
    { name: "contact detail", call: () => contacts.get(org, address) },
  ];
}
