import type { Clock } from "../ports/clock.js";
import type { Storage } from "../ports/storage.js";

/** What every service is built from. */
export interface ServiceDeps {
  storage: Storage;
  clock: Clock;
  /** Generates resource ids; time-ordered by default. */
  createId: () => string;
}

/** The plan limits of an organization (see `MailPulseOptions.limits`). */
export interface PlanLimits {
  /** Non-archived campaigns the organization may have; unlimited when undefined. */
  maxCampaigns?: number;
}
