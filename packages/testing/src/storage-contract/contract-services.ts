import { type Clock, createMailPulse, type MailPulse } from "@mailpulse/core";
import type { Storage } from "@mailpulse/core/storage";
import { createTestLogger } from "../kit/test-logger.js";

/** The services the storage contract reads a storage back through. */
export type ContractServices = Pick<MailPulse, "campaigns" | "stats" | "contacts" | "measurement">;

/** Options of {@link contractServices}. */
export interface ContractServicesOptions {
  /** `createMailPulse`'s `campaignDetailEmailLimit`. Default 500, core's own default. */
  campaignDetailEmailLimit?: number;
}

/**
 * The campaign, statistics, contact and measurement services over `storage`, wired by
 * `createMailPulse` exactly as a host gets them, so the suite checks what a storage answers
 * through the public surface and needs nothing of core's internals. Nothing is started and
 * nothing is sent, so there is nothing to stop.
 */
export function contractServices(
  storage: Storage,
  clock: Clock,
  options: ContractServicesOptions = {},
): ContractServices {
  return createMailPulse({
    storage,
    clock,
    baseUrl: "https://mailpulse.test",
    logger: createTestLogger(),
    ...options,
  });
}
