import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { type ApiTestTarget, createApiClient, createTenant } from "./api-target.js";

/** What a raw request got: used where `fetch` would normalise the path before sending it. */
interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends `path` byte for byte (`fetch` resolves `%2e%2e` and would never send it). */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const { hostname, port, pathname } = new URL(baseUrl);
  const fullPath = `${pathname.replace(/\/$/, "")}${path}`;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, method, path: fullPath, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

const gifLength = 42;

/** Path parameters and queries: refused the same way by every route, server and storage. */
export function pathContract(target: () => ApiTestTarget): void {
  describe("path parameters and queries", () => {
    it("answers ids holding NUL or other control characters 404, before any storage sees them", async () => {
      const call = createApiClient(target().baseUrl);
      const { key } = await createTenant(target().mailpulse);
      for (const [method, path] of [
        ["GET", "/api/campaigns/%00"],
        ["GET", "/api/campaigns/a%00b/stats"],
        ["POST", "/api/campaigns/%00/archive"],
        ["GET", "/api/contacts/a%00b"],
        ["GET", "/api/contacts/a%0Ab%40example.com"],
        ["DELETE", "/api/sending-domains/%7F"],
      ] as const) {
        const answer = await call(method, path, { key });
        expect([path, answer.status, answer.body]).toEqual([
          path,
          404,
          { error: "Not found: no id holds control characters" },
        ]);
      }
    });

    it("answers malformed percent-encoding and over-long ids 400 with the JSON error shape", async () => {
      const call = createApiClient(target().baseUrl);
      const { key } = await createTenant(target().mailpulse);
      for (const path of [
        "/api/campaigns/%FF",
        "/api/campaigns/%",
        "/api/campaigns/%u0041",
        "/api/contacts/%E2%82",
      ]) {
        const answer = await call("GET", path, { key });
        expect([path, answer.status, answer.body]).toEqual([
          path,
          400,
          { error: "Malformed percent-encoding in the URL path" },
        ]);
      }
      const long = await call("GET", `/api/campaigns/${"a".repeat(201)}`, { key });
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ error: expect.stringContaining('"id"') });
    });

    it("answers every pixel id with the 42-byte GIF: empty, too long, malformed, NUL", async () => {
      for (const id of ["", "a".repeat(5000), "%FF", "%", "%00", "%E2%82", "..%2f"]) {
        const response = await fetch(`${target().baseUrl}/api/t/o/${id}`);
        const body = Buffer.from(await response.arrayBuffer());
        expect([id.slice(0, 10), response.status, response.headers.get("content-type"), body.length]).toEqual(
          [id.slice(0, 10), 200, "image/gif", gifLength],
        );
      }
    });

    it("answers every unusable click id with the 404 page", async () => {
      for (const id of ["%00", "%FF", "a".repeat(5000), ""]) {
        const response = await fetch(`${target().baseUrl}/api/t/c/${id}`, { redirect: "manual" });
        expect([id.slice(0, 10), response.status, response.headers.get("content-type")]).toEqual([
          id.slice(0, 10),
          404,
          "text/html; charset=utf-8",
        ]);
        expect(await response.text()).toContain("This link is not valid");
      }
    });

    it("checks the key before the Content-Type: empty or malformed types are 401 without a key, 415 with one", async () => {
      const call = createApiClient(target().baseUrl);
      const { key } = await createTenant(target().mailpulse);
      for (const contentType of ["", "json", "application/", ";;;"]) {
        const headers = { "content-type": contentType };
        const anonymous = await call("POST", "/api/campaigns", { raw: '{"name":"x"}', headers });
        expect([contentType, anonymous.status, anonymous.body]).toEqual([
          contentType,
          401,
          { error: "Unauthorized" },
        ]);
        const keyed = await call("POST", "/api/campaigns", { key, raw: '{"name":"x"}', headers });
        expect([contentType, keyed.status]).toEqual([contentType, 415]);
        expect(keyed.body).toEqual({
          error: expect.stringContaining("Content-Type must be application/json"),
        });
      }
    });

    it("answers a request head too large to read (a 20,000-character id) 431 without a body, also to HEAD", async () => {
      for (const method of ["GET", "HEAD"]) {
        const answer = await rawRequest(target().baseUrl, method, `/api/campaigns/${"a".repeat(20_000)}`);
        expect([method, answer.status, answer.body]).toEqual([method, 431, ""]);
      }
    });

    it("refuses dot segments in the raw path before routing, whatever the method", async () => {
      const { key } = await createTenant(target().mailpulse);
      for (const [method, path] of [
        ["GET", "/api/t/%2e%2e/stats"],
        ["GET", "/api/t/o/../../stats"],
        ["GET", "/api/campaigns/%2E"],
        ["POST", "/api/t/.%2e/campaigns"],
      ] as const) {
        const answer = await rawRequest(target().baseUrl, method, path, { "x-api-key": key });
        expect([path, answer.status, JSON.parse(answer.body)]).toEqual([
          path,
          400,
          { error: "The URL path must not contain '.' or '..' segments" },
        ]);
      }
      // Dots inside a segment are just characters.
      const dotted = await rawRequest(target().baseUrl, "GET", "/api/contacts/a..b%40example.com", {
        "x-api-key": key,
      });
      expect(dotted.status).toBe(404);
    });

    it("refuses a NUL in the query and a cursor holding a time no date can have, with 400", async () => {
      const call = createApiClient(target().baseUrl);
      const { key } = await createTenant(target().mailpulse);
      const nul = await call("GET", "/api/contacts?search=a%00b", { key });
      expect(nul.status).toBe(400);
      expect(nul.body).toEqual({ error: 'The query must not contain NUL (%00): see "search"' });
      for (const payload of [
        [9007199254740991, "a@example.com"],
        [0, "a\u0000@example.com"],
      ]) {
        const cursor = Buffer.from(JSON.stringify(payload)).toString("base64url");
        const answer = await call("GET", `/api/contacts?cursor=${cursor}`, { key });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ error: expect.stringContaining('"cursor"') });
      }
      const stats = await call("GET", "/api/campaigns/some-id/stats?period=%00", { key });
      expect(stats.status).toBe(400);
    });
  });
}
