import { runApiContractSuite, serverKinds } from "@mailpulse/core/testing/contracts";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

// One contract, every host adapter, every storage: real ports, real fetch.
for (const storage of storageFactories) {
  for (const kind of serverKinds) {
    runApiContractSuite(`${kind} on ${storage.name}`, apiTargetStarter(kind, storage));
  }
}
