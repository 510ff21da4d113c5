/**
 * One route table under a base path: routes are declared relative, the instance mounts them under
 * `basePath`, and everything that names a route's URL (tracking URLs in emails, the contact
 * list's next page, the OpenAPI paths) follows the base path instead of spelling `/api`.
 */
import { createMailPulse, createOpenApiDocument, type MailPulse, type Storage } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("basePath", () => {
  let storage: Storage;
  let mailpulse: MailPulse;
  let key: string;
  let organizationId: string;

  const call = (method: string, path: string, body?: unknown) =>
    mailpulse.handler(
      new Request(`http://x.test${path}`, {
        method,
        headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );

  beforeAll(async () => {
    storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    mailpulse = createMailPulse({
      storage,
      baseUrl: "https://example.com/mail",
      basePath: "/v1/tracking/",
      logger: { info() {}, error() {} },
    });
    organizationId = (await mailpulse.organizations.create({ name: "Acme" })).id;
    key = (await mailpulse.apiKeys.create(organizationId)).key;
  });
  afterAll(async () => {
    await mailpulse?.stop();
    await storage?.close();
  });

  it("serves the route table under the base path, and nothing at /api", async () => {
    expect(mailpulse.basePath).toBe("/v1/tracking");
    expect((await call("POST", "/v1/tracking/campaigns", { name: "Launch" })).status).toBe(201);
    const elsewhere = await call("GET", "/api/campaigns");
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual({ error: "No route for GET /api/campaigns" });
    // The table itself stays relative: the base path is stated once, by the instance.
    expect(mailpulse.routes.map((route) => `${route.method} ${route.path}`)).toContain("GET /campaigns/:id");
  });

  it("builds tracking URLs from the tracking routes under the base path, and serves them", async () => {
    const sent = await mailpulse.emails.send(organizationId, {
      from: "ann@acme.example",
      to: "bob@example.com",
      subject: "Hi",
      htmlContent: '<p><a href="https://acme.example/sale">Sale</a></p>',
    });
    expect(sent.pixelUrl).toBe(`https://example.com/mail/v1/tracking/t/o/${sent.emailTrackingId}`);
    const [link] = sent.links;
    expect(link?.trackingUrl).toBe(`https://example.com/mail/v1/tracking/t/c/${link?.trackingId}`);

    const pixel = await mailpulse.handler(
      new Request(`http://x.test/v1/tracking/t/o/${sent.emailTrackingId}`),
    );
    expect(pixel.headers.get("content-type")).toBe("image/gif");
    const direct = await mailpulse.handleDirect?.({
      method: "GET",
      pathname: `/v1/tracking/t/c/${link?.trackingId}`,
      clientIp: undefined,
      header: () => undefined,
    });
    expect(direct).toMatchObject({ status: 302, headers: { location: "https://acme.example/sale" } });
  });

  it("links the contact list's next page under the base path", async () => {
    await mailpulse.emails.register(organizationId, {
      to: "carol@example.com",
      subject: "Hi",
      htmlContent: "<p>Hi</p>",
    });
    const page = await call("GET", "/v1/tracking/contacts?limit=1");
    expect(page.headers.get("link")).toMatch(
      /^<https:\/\/example\.com\/mail\/v1\/tracking\/contacts\?limit=1&cursor=[\w-]+>; rel="next"$/,
    );
  });

  it("documents the paths under the base path", () => {
    const paths = Object.keys(
      createOpenApiDocument(mailpulse.routes, { basePath: mailpulse.basePath }).paths as object,
    );
    expect(paths).toContain("/v1/tracking/campaigns/{id}");
    expect(paths.every((path) => path.startsWith("/v1/tracking/"))).toBe(true);
  });

  it("refuses a base path that is not a path of its own", () => {
    for (const basePath of ["/", "", "api", "/api?x=1"]) {
      expect(() => createMailPulse({ storage, baseUrl: "http://x.test", basePath })).toThrow(/basePath/);
    }
  });
});
