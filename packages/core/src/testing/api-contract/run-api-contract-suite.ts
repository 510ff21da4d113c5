import { afterAll, beforeAll, describe } from "vitest";
import type { ApiTestTarget, StartApiTarget } from "./api-target.js";
import { campaignContract } from "./campaign-contract.js";
import { pipelineContract } from "./pipeline-contract.js";

/**
 * The API contract: every route's behaviour over real HTTP. `start` must serve a fresh instance
 * (empty storage) with the given overrides; run it once per host adapter and storage.
 */
export function runApiContractSuite(name: string, start: StartApiTarget): void {
  describe(`API contract: ${name}`, () => {
    let target: ApiTestTarget;
    let limited: ApiTestTarget;
    beforeAll(async () => {
      target = await start({});
      limited = await start({ limits: () => ({ maxCampaigns: 2 }) });
    });
    afterAll(async () => {
      await Promise.all([target?.close(), limited?.close()]);
    });

    pipelineContract(() => target);
    campaignContract(
      () => target,
      () => limited,
    );
  });
}
