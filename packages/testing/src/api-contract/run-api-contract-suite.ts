import { type MemoryProvider, memoryProvider } from "@mailpulse/core";
import { afterAll, beforeAll, describe } from "vitest";
import type { ApiTestTarget, StartApiTarget } from "./api-target.js";
import { campaignContract } from "./campaign-contract.js";
import { campaignRenameContract } from "./campaign-rename-contract.js";
import { connectionContract } from "./connection-contract.js";
import { contactContract } from "./contact-contract.js";
import { deliveryFeedbackContract } from "./delivery-feedback-contract.js";
import { domainContract } from "./domain-contract.js";
import { emailListContract } from "./email-list-contract.js";
import { healthContract } from "./health-contract.js";
import { pathContract } from "./path-contract.js";
import { pipelineContract } from "./pipeline-contract.js";
import { contractPlatformDomain, sendContract } from "./send-contract.js";
import { snsContract } from "./sns-contract.js";
import { statsContract } from "./stats-contract.js";
import { suppressionContract } from "./suppression-contract.js";
import { trackingContract } from "./tracking-contract.js";
import { unsubscribeContract } from "./unsubscribe-contract.js";
import { webhookContract } from "./webhook-contract.js";

/**
 * The API contract: every route's behaviour over real HTTP. `start` must serve a fresh instance
 * (empty storage) with the given overrides; run it once per host adapter and storage.
 */
export function runApiContractSuite(name: string, start: StartApiTarget): void {
  describe(`API contract: ${name}`, () => {
    let provider: MemoryProvider;
    let target: ApiTestTarget;
    let limited: ApiTestTarget;
    let failing: ApiTestTarget;
    beforeAll(async () => {
      provider = memoryProvider();
      [target, limited, failing] = await Promise.all([
        start({ mailProvider: provider, platformDomain: contractPlatformDomain }),
        start({ limits: () => ({ maxCampaigns: 2 }) }),
        start({ mailProvider: memoryProvider({ fail: () => new Error("550 refused by test provider") }) }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([target?.close(), limited?.close(), failing?.close()]);
    });

    pipelineContract(() => target);
    pathContract(() => target);
    connectionContract(() => target);
    campaignContract(
      () => target,
      () => limited,
    );
    campaignRenameContract(() => target);
    healthContract(() => target);
    sendContract(
      () => target,
      () => provider,
      () => failing,
    );
    trackingContract(() => target);
    // These start targets of their own: their clocks move, and periods are relative to "now".
    statsContract(start);
    contactContract(start);
    domainContract(start);
    webhookContract(start);
    suppressionContract(start);
    emailListContract(start);
    unsubscribeContract(start);
    snsContract(start);
    deliveryFeedbackContract(start);
  });
}
