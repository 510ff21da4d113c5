import { createMailPulse, type MailPulse, memoryProvider } from "@mailpulse/core";
import { createApiClient, createTenant, serverKinds, startTestServer } from "@mailpulse/testing/contracts";
import { describe, expect, it } from "vitest";
import { maxJsonDepth } from "../../src/util/json-depth.js";
import { storageFactories } from "../support/storages.js";

/** `{"a":{"a":...}}` nesting `levels` objects. */
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;
const deepMetadataBody = (metadataLevels: number) =>
  `{"from":"a@shop.example","to":"b@example.com","subject":"Deep","htmlContent":"<p>Hi</p>","metadata":${nestedObject(metadataLevels)}}`;

const servers = [
  ...serverKinds.map((kind) => ({ kind, hostJsonParser: false })),
  // express.json() ahead of the adapter parses the body first; the bridge re-serialises it.
  { kind: "express" as const, hostJsonParser: true },
];

// Issue 11: metadata nested 10,000 levels overflowed JSON.stringify into a 500 on both storages.
for (const storage of storageFactories) {
  describe(`JSON bodies nested too deep, on ${storage.name}`, () => {
    for (const server of servers) {
      it(`are refused with a 400 before validation (${server.kind}${server.hostJsonParser ? " + express.json()" : ""})`, async () => {
        const store = await storage.create();
        let instance: MailPulse | undefined;
        const running = await startTestServer(
          server.kind,
          {
            basePath: "/api",
            maxBodyBytes: 1024 * 1024,
            handler: (request, info) => instance!.handler(request, info),
          },
          { hostJsonParser: server.hostJsonParser },
        );
        instance = createMailPulse({
          storage: store,
          baseUrl: running.baseUrl,
          mailProvider: memoryProvider(),
        });
        try {
          const call = createApiClient(running.baseUrl);
          const { key } = await createTenant(instance);
          const headers = { "content-type": "application/json" };
          for (const levels of [maxJsonDepth, 10_000, 100_000]) {
            const refused = await call("POST", "/api/send", { key, headers, raw: deepMetadataBody(levels) });
            expect([levels, refused.status, refused.body]).toEqual([
              levels,
              400,
              { error: `Request body nests objects and arrays more than ${maxJsonDepth} levels deep` },
            ]);
          }
          const deepArray = await call("POST", "/api/campaigns", {
            key,
            headers,
            raw: "[".repeat(50_000) + "]".repeat(50_000),
          });
          expect(deepArray.status).toBe(400);
          // The body itself is level 1: metadata may nest one level less than the bound.
          const accepted = await call("POST", "/api/send", {
            key,
            headers,
            raw: deepMetadataBody(maxJsonDepth - 1),
          });
          expect(accepted.status).toBe(200);
        } finally {
          await running.close();
          await instance.stop();
          await store.close();
        }
      });
    }
  });
}
