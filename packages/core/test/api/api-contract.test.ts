import { runApiContractSuite, serverKinds } from "@mailpulse/testing/contracts";
import { describe, expect, it } from "vitest";
import { openApiViolations } from "../support/openapi-answers.js";
import { recordedAnswers } from "../support/recorded-answers.js";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

// One contract, every host adapter, every storage: real ports, real fetch.
for (const storage of storageFactories) {
  for (const kind of serverKinds) {
    runApiContractSuite(`${kind} on ${storage.name}`, apiTargetStarter(kind, storage));
  }
}

// Last, once every suite above has run: their real answers, checked against the document's
// response schemas by ajv. The tests of docs/openapi.json provoke each documented status; this
// checks that what the contract suite met on every adapter and storage is what the document says.
describe("the API contract's answers against docs/openapi.json", () => {
  it("are documented statuses and media types, with JSON bodies that conform to their schemas (ajv)", async () => {
    expect(recordedAnswers.length).toBeGreaterThan(100);
    expect(await openApiViolations(recordedAnswers)).toEqual([]);
  });

  it("would notice a wrong body, an undocumented status or media type", async () => {
    const answer = { method: "GET", pathname: "/api/campaigns", contentType: "application/json" };
    const violations = await openApiViolations([
      { ...answer, status: 200, body: '{"campaigns":[{"id":1}]}' },
      { ...answer, status: 418, body: '{"error":"teapot"}' },
      { ...answer, status: 200, contentType: "text/html", body: "<p>" },
      {
        ...answer,
        pathname: "/api/campaigns/x",
        status: 404,
        body: '{"error":"Campaign not found","extra":1}',
      },
    ]);
    expect(violations).toHaveLength(4);
  });
});
