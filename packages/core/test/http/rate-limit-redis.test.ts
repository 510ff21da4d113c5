import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";
import { createMailPulse, type MailPulse } from "@mailpulse/core";
import {
  createApiClient,
  createTenant,
  startTestServer,
  type TestServer,
} from "@mailpulse/testing/contracts";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageFactories } from "../support/storages.js";

/** A real Redis server on loopback when the machine has one (`redis-server` on the PATH). */
function hasRedisServer(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const redisAvailable = hasRedisServer();
if (!redisAvailable)
  console.log("Redis rate-limit suite skipped: redis-server is not installed (apt-get install redis-server)");

describe.runIf(redisAvailable)("the API's rate limit counted in Redis", () => {
  let redisServer: ChildProcess;
  let redis: Redis;
  beforeAll(async () => {
    const port = await freePort();
    redisServer = spawn("redis-server", [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
    ]);
    let output = "";
    await new Promise<void>((resolve, reject) => {
      redisServer.once("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
      redisServer.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) resolve();
      });
    });
    redis = new Redis({ host: "127.0.0.1", port, maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis?.disconnect();
    redisServer?.kill();
  });

  it("shares one quota per key between two instances, and refuses past it with 429", async () => {
    const storage = await storageFactories[0]!.create();
    const instances: MailPulse[] = [0, 1].map(() =>
      createMailPulse({ storage, baseUrl: "http://localhost", rateLimit: { limit: 3, store: { redis } } }),
    );
    const servers: TestServer[] = [];
    try {
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
      const answers = [];
      for (let index = 0; index < 4; index++) {
        answers.push(await createApiClient(servers[index % 2]!.baseUrl)("GET", "/api/campaigns", { key }));
      }
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
      expect(answers[3]!.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60');
      // The counter is Redis's, under the limiter's key prefix.
      expect((await redis.keys("api:*")).length).toBe(1);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await storage.close();
    }
  });
});
