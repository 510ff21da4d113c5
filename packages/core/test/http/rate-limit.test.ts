import { createMailPulse, type Storage } from "@mailpulse/core";
import { createApiClient, createTenant, serverKinds, startTestServer } from "@mailpulse/testing/contracts";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

const policy = '"default";q=5;w=60';

for (const storage of storageFactories) {
  describe(`the API's rate limit on ${storage.name}`, () => {
    for (const kind of serverKinds) {
      it(`refuses a burst past the limit on one key with 429 and its headers, while another key of the organization is served (${kind})`, async () => {
        const target = await apiTargetStarter(kind, storage)({ rateLimit: { limit: 5, windowMs: 60_000 } });
        try {
          const call = createApiClient(target.baseUrl);
          const { organization, key: noisy } = await createTenant(target.mailpulse);
          const { key: quiet } = await target.mailpulse.apiKeys.create(organization.id);

          const burst = [];
          for (let index = 0; index < 7; index++)
            burst.push(await call("GET", "/api/campaigns", { key: noisy }));
          expect(burst.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
          expect(burst.map((answer) => answer.headers.get("ratelimit-policy"))).toEqual(
            Array(7).fill(policy),
          );
          expect(burst[0]!.headers.get("ratelimit")).toMatch(/^"default";r=4;t=(60|59)$/);
          expect(burst[4]!.headers.get("ratelimit")).toMatch(/^"default";r=0;t=\d+$/);
          const refused = burst[5]!;
          const retryAfter = Number(refused.headers.get("retry-after"));
          expect(retryAfter).toBeGreaterThanOrEqual(1);
          expect(retryAfter).toBeLessThanOrEqual(60);
          expect(refused.body).toEqual({ error: `Rate limit exceeded: retry in ${retryAfter} s` });

          // Another key of the same organization has a quota of its own.
          const other = await call("GET", "/api/campaigns", { key: quiet });
          expect(other.status).toBe(200);
          expect(other.headers.get("ratelimit")).toMatch(/^"default";r=4;t=\d+$/);
          // Errors of authenticated requests carry the headers too; 401s do not count or carry them.
          const missing = await call("GET", "/api/campaigns/nope", { key: quiet });
          expect(missing.status).toBe(404);
          expect(missing.headers.get("ratelimit")).toMatch(/^"default";r=3;t=\d+$/);
          const anonymous = await call("GET", "/api/campaigns");
          expect(anonymous.status).toBe(401);
          expect(anonymous.headers.get("ratelimit")).toBeNull();
          // Tracking routes are not limited per key.
          expect((await fetch(`${target.baseUrl}/api/t/o/anything`)).status).toBe(200);
        } finally {
          await target.close();
        }
      });
    }

    it("shares one quota between two instances on the same database (the storage's store)", async () => {
      const shared = await storage.create();
      const servers = [];
      try {
        const instances = [0, 1].map(() =>
          createMailPulse({ storage: shared, baseUrl: "http://localhost", rateLimit: { limit: 3 } }),
        );
        for (const instance of instances) {
          servers.push(
            await startTestServer("fetch", {
              basePath: "/api",
              maxBodyBytes: 1024,
              handler: (request, info) => instance.handler(request, info),
            }),
          );
        }
        const { key } = await createTenant(instances[0]!);
        const statuses = [];
        for (let index = 0; index < 4; index++) {
          const call = createApiClient(servers[index % 2]!.baseUrl);
          statuses.push((await call("GET", "/api/campaigns", { key })).status);
        }
        expect(statuses).toEqual([200, 200, 200, 429]);
      } finally {
        await Promise.all(servers.map((server) => server.close()));
        await shared.close();
      }
    });
  });
}

describe("the API's rate limit when its store fails", () => {
  it("counts in memory instead, logs the failure once, and keeps serving", async () => {
    const [sqlite] = storageFactories;
    const storage = await sqlite!.create();
    const broken = new Database(":memory:");
    broken.close();
    // The rate-limit table's connection is closed: every store call fails.
    const failing: Storage = { ...storage, rateLimitBackend: { kind: "better-sqlite3", database: broken } };
    const errors: string[] = [];
    const mailpulse = createMailPulse({
      storage: failing,
      baseUrl: "http://localhost",
      rateLimit: { limit: 2 },
      logger: { info: () => {}, error: (message) => errors.push(message) },
    });
    const server = await startTestServer("fetch", {
      basePath: "/api",
      maxBodyBytes: 1024,
      handler: (request, info) => mailpulse.handler(request, info),
    });
    try {
      const call = createApiClient(server.baseUrl);
      const { key } = await createTenant(mailpulse);
      const statuses = [];
      for (let index = 0; index < 3; index++)
        statuses.push((await call("GET", "/api/campaigns", { key })).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect(errors).toEqual(["MailPulse: the rate limit's store failed; counting in this process's memory"]);
    } finally {
      await server.close();
      await storage.close();
    }
  });
});

describe("the tracking routes' per-IP limit", () => {
  it("is off by default and, when set, refuses hits past it with 429 and its headers", async () => {
    const [sqlite] = storageFactories;
    const unlimited = await apiTargetStarter(serverKinds[0]!, sqlite!)({});
    const limited = await apiTargetStarter(
      serverKinds[0]!,
      sqlite!,
    )({
      rateLimit: { trackingPerIp: { limit: 2, windowMs: 60_000 } },
    });
    try {
      const statuses = async (baseUrl: string) => {
        const all = [];
        for (let index = 0; index < 3; index++) all.push((await fetch(`${baseUrl}/api/t/o/some-id`)).status);
        return all;
      };
      expect(await statuses(unlimited.baseUrl)).toEqual([200, 200, 200]);
      expect(await statuses(limited.baseUrl)).toEqual([200, 200, 429]);
      const refused = await fetch(`${limited.baseUrl}/api/t/c/some-id`, { redirect: "manual" });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("ratelimit-policy")).toBe('"default";q=2;w=60');
      expect(await refused.json()).toEqual({
        error: expect.stringMatching(/^Rate limit exceeded: retry in \d+ s$/),
      });
    } finally {
      await Promise.all([unlimited.close(), limited.close()]);
    }
  });
});
