/**
 * Property-based tests of the whole HTTP surface (issue 11): for every route of the route table
 * (`mailpulse.routes`, so routes added later are covered without touching this file), hostile
 * requests (random and mutated bodies, wrong types, deep nesting, `__proto__` keys, invalid UTF-8,
 * wrong content types, absurd queries, bad path ids) through the bare handler, Express and Fastify,
 * on SQLite and PostgreSQL. Every answer must be a documented status, never a 5xx, and every JSON
 * error exactly `{"error": string}`, nothing may be logged as an error (client input is never a
 * stack in the log); the server must still answer afterwards.
 *
 * Cases per route, server and storage: MAILPULSE_FUZZ_RUNS (default 350: 2,100 per route over the
 * three servers and two storages of a CI run, about 44,000 requests in 3 to 4 minutes; raise it
 * for a longer hunt). The count of requests made is printed.
 */
import { request as httpRequest } from "node:http";
import {
  createMailPulse,
  createOpenApiDocument,
  type MailPulse,
  type MailPulseRoute,
  memoryProvider,
} from "@mailpulse/core";
import {
  createApiClient,
  createTenant,
  serverKinds,
  startTestServer,
  type TestServer,
} from "@mailpulse/testing/contracts";
import { type DnsTestServer, startDnsTestServer } from "@mailpulse/testing/peers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageFactories } from "../support/storages.js";
import { hostileBody, hostileContentType, hostileQuery, hostileSegment } from "./arbitraries.js";

const runsPerRoute = Number(process.env.MAILPULSE_FUZZ_RUNS ?? 350);
const maxBodyBytes = 64 * 1024;
/** Answers any route may give to a hostile request: bad input, auth, routing, size, type, rate. */
const universalStatuses = [400, 401, 404, 405, 413, 415, 429];
let requestsMade = 0;

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** Sends exactly these bytes (a raw path, any body), as `fetch` would not. */
function send(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  requestsMade += 1;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        hostname,
        port,
        method,
        path,
        headers: body ? { ...headers, "content-length": String(body.length) } : headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers["content-type"] ?? ""),
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.setTimeout(15_000, () => outgoing.destroy(new Error(`no answer to ${method} ${path}`)));
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** The route's documented request bodies, the seeds that mutated bodies start from. */
function bodyExamples(route: MailPulseRoute): Record<string, unknown>[] {
  const examples = (route.docs?.requestBody?.examples ?? {}) as Record<string, { value?: unknown }>;
  return Object.values(examples)
    .map((example) => example.value)
    .filter(
      (value): value is Record<string, unknown> =>
        typeof value === "object" && value !== null && !Array.isArray(value),
    );
}

for (const storage of storageFactories) {
  for (const kind of serverKinds) {
    describe(`hostile requests to every route: ${kind} on ${storage.name}`, () => {
      let dns: DnsTestServer;
      let server: TestServer;
      let mailpulse: MailPulse;
      let close: () => Promise<void>;
      let key: string;
      let knownIds: string[];
      let documentedStatuses: Set<number>;
      /** What MailPulse logged as an error: client input must never produce a log line (or a stack). */
      const loggedErrors: string[] = [];

      beforeAll(async () => {
        dns = await startDnsTestServer();
        // Domain checks must not wait on the network: an empty zone answers NXDOMAIN at once.
        const store = await storage.create();
        let instance: MailPulse | undefined;
        server = await startTestServer(kind, {
          basePath: "/api",
          maxBodyBytes,
          handler: (request, info) => instance!.handler(request, info),
        });
        instance = createMailPulse({
          storage: store,
          baseUrl: server.baseUrl,
          maxBodyBytes,
          mailProvider: memoryProvider({ keep: 0 }),
          domains: { dnsServers: [dns.server], dnsTimeoutMs: 500 },
          rateLimit: { limit: 1_000_000 },
          logger: { info: () => {}, error: (message) => loggedErrors.push(message) },
        });
        mailpulse = instance;
        close = async () => {
          await server.close();
          await mailpulse.stop();
          await store.close();
          await dns.close();
        };
        ({ key } = await createTenant(mailpulse));
        const call = createApiClient(server.baseUrl);
        const campaign = await call("POST", "/api/campaigns", { key, json: { name: "Fuzzed" } });
        const sent = await call("POST", "/api/send", {
          key,
          json: {
            from: "a@shop.example",
            to: "bob@example.com",
            subject: "Hi",
            htmlContent: '<a href="https://shop.example/">x</a>',
            campaignId: "Fuzzed",
          },
        });
        knownIds = [
          campaign.body.id,
          sent.body.emailTrackingId,
          sent.body.links[0].trackingId,
          encodeURIComponent("bob@example.com"),
        ];
        const doc = createOpenApiDocument(mailpulse.routes) as {
          paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
        };
        documentedStatuses = new Set(
          Object.values(doc.paths)
            .flatMap((item) => Object.values(item))
            .flatMap((operation) => Object.keys(operation.responses).map(Number))
            .filter((status) => status < 500),
        );
      });
      afterAll(async () => {
        await close?.();
        console.log(`api fuzz (${kind} on ${storage.name}): ${requestsMade} requests made so far`);
      });

      it("answers every route's hostile requests with a documented status and the JSON error shape, never a 5xx", async () => {
        for (const route of mailpulse.routes) {
          const segments = route.path.split("/").filter(Boolean);
          const request = fc.record({
            method: fc.oneof(
              { arbitrary: fc.constant(route.method), weight: 8 },
              {
                arbitrary: fc.constantFrom("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
                weight: 1,
              },
            ),
            segments: fc.tuple(
              ...segments.map((segment) =>
                segment.startsWith(":") ? hostileSegment(knownIds) : fc.constant(segment),
              ),
            ),
            query: fc.oneof(fc.constant(""), hostileQuery),
            key: fc.oneof(
              { arbitrary: fc.constant<string | undefined>(key), weight: 18 },
              {
                arbitrary: fc.constantFrom<string | undefined>(undefined, "mp_wrong", "", "\u00ff"),
                weight: 1,
              },
            ),
            contentType: hostileContentType,
            body: hostileBody(bodyExamples(route)),
          });
          await fc.assert(
            fc.asyncProperty(request, async (input) => {
              const path = `/api/${input.segments.join("/")}${input.query ? `?${input.query}` : ""}`;
              const headers: Record<string, string> = {};
              if (input.key !== undefined) headers["x-api-key"] = input.key;
              if (input.contentType !== undefined) headers["content-type"] = input.contentType;
              const withBody = input.method !== "GET" && input.method !== "HEAD";
              const answer = await send(
                server.baseUrl,
                input.method,
                path,
                headers,
                withBody ? input.body : undefined,
              );
              const where = `${input.method} ${path.slice(0, 200)} -> ${answer.status} ${answer.body.slice(0, 200)}`;
              expect(answer.status, where).toBeLessThan(500);
              expect(
                universalStatuses.includes(answer.status) || documentedStatuses.has(answer.status),
                where,
              ).toBe(true);
              if (answer.status >= 400 && answer.contentType.includes("json") && input.method !== "HEAD") {
                const parsed = JSON.parse(answer.body) as Record<string, unknown>;
                expect(Object.keys(parsed), where).toEqual(["error"]);
                expect(typeof parsed.error, where).toBe("string");
              }
            }),
            { numRuns: runsPerRoute },
          );
        }
        // Still up, and still serving; and nothing the clients sent was logged as an error.
        const call = createApiClient(server.baseUrl);
        expect((await call("GET", "/api/campaigns", { key })).status).toBe(200);
        expect(loggedErrors).toEqual([]);
      }, 600_000);
    });
  }
}
