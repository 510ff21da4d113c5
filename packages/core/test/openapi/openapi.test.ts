/**
 * docs/openapi.json against the code: it is exactly what `createOpenApiDocument` generates from
 * the route table (`npm run openapi` writes it), so a new or changed route fails here until the
 * file is regenerated; the generator refuses undocumented routes and docs that contradict their
 * route; every documented operation reaches a route of the real handler, and every status, media
 * type and JSON body the handler answers is one the document lists, and the other way round.
 */
import { readFile } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import {
  createMailPulse,
  createOpenApiDocument,
  createRecipientToken,
  type MailPulse,
  memoryProvider,
  type Storage,
} from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import {
  type DnsTestServer,
  type HttpsTestReceiver,
  signSnsEnvelope,
  startDnsTestServer,
  startHttpsTestReceiver,
  testSnsCertificate,
  testSnsCertificateUrl,
} from "@mailpulse/testing/peers";

const snsTopicArn = "arn:aws:sns:us-east-1:123456789012:ses-feedback";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestFingerprint } from "../../src/services/idempotency/request-fingerprint.js";

type JsonObject = Record<string, unknown>;

interface MediaType {
  schema?: JsonObject;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

interface ResponseObject {
  description: string;
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, MediaType>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonObject;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject | { $ref: string }>;
}

interface OpenApiDocument {
  openapi: string;
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, JsonObject>;
    schemas: Record<string, JsonObject>;
    responses: Record<string, ResponseObject>;
  };
}

const docUrl = new URL("../../../../docs/openapi.json", import.meta.url);

const doc = JSON.parse(await readFile(docUrl, "utf8")) as OpenApiDocument;

const operationMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

interface DocumentedOperation {
  key: string;
  method: string;
  path: string;
  operation: Operation;
}

const documented: DocumentedOperation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => operationMethods.includes(method))
    .map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      operation,
    })),
);

function operationFor(key: string): DocumentedOperation {
  const found = documented.find((entry) => entry.key === key);
  if (!found) throw new Error(`${key} is not documented in docs/openapi.json`);
  return found;
}

function effectiveSecurity(operation: Operation): Array<Record<string, string[]>> {
  return operation.security ?? doc.security ?? [];
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The target of a local `$ref` (`#/components/...`), or the node itself. */
function resolve<T>(node: T | { $ref: string }): T {
  if (!isObject(node) || typeof node.$ref !== "string") return node as T;
  const pointer = node.$ref;
  if (!pointer.startsWith("#/")) throw new Error(`Only local $refs are expected, got ${pointer}`);
  let target: unknown = doc;
  for (const part of pointer.slice(2).split("/")) {
    target = isObject(target) ? target[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  }
  if (target === undefined) throw new Error(`Unresolved $ref ${pointer}`);
  return resolve(target as T);
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "object":
      return isObject(value);
    case "array":
      return Array.isArray(value);
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "null":
      return value === null;
    default:
      return typeof value === type;
  }
}

const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The ways `value` breaks `schema`: the JSON Schema subset the document uses ($ref, type, const,
 * enum, oneOf, anyOf, properties, required, additionalProperties, items, bounds, pattern, formats).
 */
function schemaErrors(schemaOrRef: JsonObject, value: unknown, at: string): string[] {
  const schema = resolve(schemaOrRef);
  const errors: string[] = [];
  if ("const" in schema && !isDeepStrictEqual(value, schema.const)) {
    errors.push(`${at}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => isDeepStrictEqual(option, value))) {
    errors.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if (Array.isArray(schema.oneOf)) {
    const matches = schema.oneOf.filter((option) => schemaErrors(option, value, at).length === 0).length;
    if (matches !== 1) errors.push(`${at}: matches ${matches} of the oneOf alternatives, not exactly one`);
  }
  if (
    Array.isArray(schema.anyOf) &&
    !schema.anyOf.some((option) => schemaErrors(option, value, at).length === 0)
  ) {
    errors.push(`${at}: matches none of the anyOf alternatives`);
  }
  if (schema.type !== undefined) {
    const types = ([] as unknown[]).concat(schema.type) as string[];
    if (!types.some((type) => hasType(value, type))) {
      errors.push(`${at}: expected ${types.join(" or ")}, got ${JSON.stringify(value)?.slice(0, 80)}`);
      return errors;
    }
  }
  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && value.length < schema.minLength) {
      errors.push(`${at}: shorter than ${schema.minLength}`);
    }
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength) {
      errors.push(`${at}: longer than ${schema.maxLength}`);
    }
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value)) {
      errors.push(`${at}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
    }
    if (schema.format === "date-time" && !(isoDateTime.test(value) && !Number.isNaN(Date.parse(value)))) {
      errors.push(`${at}: ${JSON.stringify(value)} is not an ISO 8601 date-time`);
    }
    if (schema.format === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      errors.push(`${at}: ${JSON.stringify(value)} is not a YYYY-MM-DD date`);
    }
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum)
      errors.push(`${at}: below ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum)
      errors.push(`${at}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) {
      errors.push(`${at}: fewer than ${schema.minItems} items`);
    }
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
      errors.push(`${at}: more than ${schema.maxItems} items`);
    }
    if (isObject(schema.items)) {
      const items = schema.items;
      value.forEach((item, index) => {
        errors.push(...schemaErrors(items, item, `${at}[${index}]`));
      });
    }
  }
  if (isObject(value)) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const name of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
      if (!(name in value)) errors.push(`${at}: "${name}" is required`);
    }
    for (const [name, property] of Object.entries(value)) {
      const propertySchema = properties[name];
      if (isObject(propertySchema)) errors.push(...schemaErrors(propertySchema, property, `${at}.${name}`));
      else if (schema.additionalProperties === false) errors.push(`${at}: "${name}" is not documented`);
    }
  }
  return errors;
}

/** Every value under `node`, with its JSON path. */
function* walk(node: unknown, at = "#"): Generator<[string, unknown]> {
  yield [at, node];
  if (Array.isArray(node)) for (const [index, item] of node.entries()) yield* walk(item, `${at}/${index}`);
  else if (isObject(node)) for (const [key, item] of Object.entries(node)) yield* walk(item, `${at}/${key}`);
}

/** Each example of a media type or parameter, named. */
function examplesOf(holder: MediaType | Parameter): Array<[string, unknown]> {
  const named = Object.entries(holder.examples ?? {}).map(([name, example]): [string, unknown] => [
    name,
    resolve(example).value,
  ]);
  return "example" in holder ? [["example", holder.example], ...named] : named;
}

describe("docs/openapi.json", () => {
  it("is an OpenAPI 3.1 document whose $refs all resolve", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    for (const [at, node] of walk(doc)) {
      if (isObject(node) && typeof node.$ref === "string") {
        expect(() => resolve(node), `${at}`).not.toThrow();
      }
    }
  });

  it("is what `npm run openapi` generates from the route table", async () => {
    const storage = sqliteStorage({ filename: ":memory:" });
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "http://x.test",
      logger: { info() {}, error() {} },
    });
    try {
      const generated = JSON.parse(JSON.stringify(createOpenApiDocument(mailpulse.routes)));
      expect(doc, "docs/openapi.json is stale: run `npm run openapi`").toEqual(generated);
    } finally {
      await mailpulse.stop();
      await storage.close();
    }
  });

  it("has unique operation ids", () => {
    const ids = documented.map((entry) => entry.operation.operationId);
    expect(ids.every((id) => typeof id === "string")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("uses the x-api-key header scheme, and no security exactly on the routes declared auth: none", async () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "x-api-key",
    });
    // Only the tracking pixel and redirect, which mail clients call, the health check and this document go without a key.
    const publicOperations = documented.filter(({ operation }) => effectiveSecurity(operation).length === 0);
    expect(publicOperations.map((entry) => entry.key).sort()).toEqual([
      "GET /api/health",
      "GET /api/openapi.json",
      "GET /api/t/c/{id}",
      "GET /api/t/o/{id}",
      "GET /api/u/{token}",
      "POST /api/sns",
      "POST /api/u/{token}",
    ]);
    for (const { key, operation } of documented) {
      if (effectiveSecurity(operation).length > 0)
        expect(effectiveSecurity(operation), key).toEqual([{ apiKey: [] }]);
    }
  });

  it("documents 401 on every operation that requires an API key, and only there", () => {
    for (const { key, operation } of documented) {
      const secured = effectiveSecurity(operation).length > 0;
      expect("401" in operation.responses, key).toBe(secured);
    }
  });

  it("documents every JSON request body as required, with its 400, 413 and 415", () => {
    for (const { key, operation } of documented) {
      if (!operation.requestBody) continue;
      // The one-click unsubscribe POST reads a form (RFC 8058), optional as mail clients send it.
      if (key === "POST /api/u/{token}") {
        expect(Object.keys(operation.requestBody.content), key).toEqual([
          "application/x-www-form-urlencoded",
          "multipart/form-data",
        ]);
      } else if (key === "POST /api/sns") {
        // SNS posts its JSON as text/plain, and the route reads it whatever the type.
        expect(Object.keys(operation.requestBody.content), key).toEqual(["text/plain"]);
        continue;
      } else {
        expect(Object.keys(operation.requestBody.content), key).toEqual(["application/json"]);
        expect(operation.requestBody.required, key).toBe(true);
      }
      // A body the route reads can be too large, of the wrong type, or malformed.
      for (const status of ["400", "413", "415"]) expect(operation.responses, key).toHaveProperty(status);
    }
  });

  it("declares every path parameter", () => {
    for (const { key, path, operation } of documented) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const declared = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === "path")
        .map((parameter) => {
          expect(parameter.required, `${key} ${parameter.name}`).toBe(true);
          return parameter.name;
        })
        .sort();
      expect(declared, key).toEqual(inPath);
    }
  });

  it("describes every error body of every JSON error response as {error: string}", () => {
    for (const { key, operation } of documented) {
      for (const [status, responseOrRef] of Object.entries(operation.responses)) {
        if (!/^[45]\d\d$/.test(status)) continue;
        const json = resolve(responseOrRef).content?.["application/json"];
        if (!json?.schema) continue;
        expect(resolve(json.schema), `${key} ${status}`).toBe(doc.components.schemas.Error);
      }
    }
  });

  it("has examples that conform to their schemas", () => {
    let checked = 0;
    for (const { key, operation } of documented) {
      const holders: Array<[string, MediaType | Parameter, JsonObject | undefined]> = [
        ...(operation.parameters ?? []).map((parameter): [string, Parameter, JsonObject | undefined] => [
          `${key} parameter ${parameter.name}`,
          parameter,
          parameter.schema,
        ]),
        ...Object.entries(operation.requestBody?.content ?? {}).map(
          ([type, media]): [string, MediaType, JsonObject | undefined] => [
            `${key} request ${type}`,
            media,
            media.schema,
          ],
        ),
        ...Object.entries(operation.responses).flatMap(([status, responseOrRef]) =>
          Object.entries(resolve(responseOrRef).content ?? {}).map(
            ([type, media]): [string, MediaType, JsonObject | undefined] => [
              `${key} ${status} ${type}`,
              media,
              media.schema,
            ],
          ),
        ),
      ];
      for (const [where, holder, schema] of holders) {
        if (!schema) continue;
        for (const [name, value] of examplesOf(holder)) {
          checked += 1;
          expect(schemaErrors(schema, value, "example"), `${where} example ${name}`).toEqual([]);
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe("docs/openapi.json against the live handler", () => {
  let storage: Storage;
  let mailpulse: MailPulse;
  /** The same storage behind a rate limit of one request per key and per IP, for the 429s. */
  let limited: MailPulse;
  let apiKey: string;
  /** A second organization, for the domain rules between organizations. */
  let otherKey: string;
  let dns: DnsTestServer;
  /** A webhook receiver on loopback that fails deliveries to `/fail`. */
  let receiver: HttpsTestReceiver;
  /** Statuses seen per documented operation, to compare with the documented ones at the end. */
  const observed = new Map<string, Set<string>>();
  const maxBodyBytes = 4096;
  const maxCampaigns = 3;

  beforeAll(async () => {
    storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    dns = await startDnsTestServer();
    receiver = await startHttpsTestReceiver({
      respond: (request) => ({ status: request.path === "/fail" ? 500 : 200 }),
    });
    mailpulse = createMailPulse({
      storage,
      baseUrl: "http://x.test",
      // Beyond the defaults only so that every documented status can be provoked.
      limits: () => ({ maxCampaigns }),
      maxBodyBytes,
      maxSendBodyBytes: maxBodyBytes,
      mailProvider: memoryProvider({
        fail: (message) => (message.subject === "provider refuses" ? new Error("550 refused") : undefined),
      }),
      logger: { info: () => {}, error: () => {} },
      // Domain verification reads a DNS server on loopback, never public DNS.
      domains: { dnsServers: [dns.server], dnsTimeoutMs: 2000 },
      // Webhooks deliver to the receiver on loopback.
      webhooks: { allowPrivateNetworks: true, ca: receiver.ca },
      // SNS messages signed with the local stand-in for SNS's certificate; one URL is "down".
      sns: {
        topicArns: [snsTopicArn],
        fetchCertificate: async (url) => {
          if (url !== testSnsCertificateUrl) throw new Error(`${url} is down`);
          return testSnsCertificate;
        },
      },
    });
    limited = createMailPulse({
      storage,
      baseUrl: "http://x.test",
      rateLimit: { limit: 1, store: "memory", trackingPerIp: { limit: 1, windowMs: 60_000 } },
      logger: { info: () => {}, error: () => {} },
    });
    const organization = await mailpulse.organizations.create({ name: "Acme" });
    apiKey = (await mailpulse.apiKeys.create(organization.id)).key;
    const other = await mailpulse.organizations.create({ name: "Other" });
    otherKey = (await mailpulse.apiKeys.create(other.id)).key;
  });

  afterAll(async () => {
    await dns?.close();
    await receiver?.close();
    await mailpulse?.stop();
    await limited?.stop();
    await storage?.close();
  });

  interface CallOptions {
    /** Path parameter values, inserted as given (encode them yourself); missing ones are "x". */
    params?: Record<string, string>;
    query?: string;
    /** A string is sent as is; anything else as JSON. */
    body?: unknown;
    contentType?: string;
    /** The `x-api-key` header; `null` sends none. Default: a valid key. */
    key?: string | null;
    /** Further request headers. */
    headers?: Record<string, string>;
    /** The instance to ask (with a client IP); default the unlimited one. */
    via?: MailPulse;
  }

  interface Answer {
    status: number;
    headers: Headers;
    text: string;
    json: unknown;
  }

  /**
   * Calls the handler for a documented operation and checks the answer against the document: the
   * status is listed, the media type is the listed one, the JSON body conforms, required headers are there.
   */
  async function call(key: string, options: CallOptions = {}): Promise<Answer> {
    const { method, path, operation } = operationFor(key);
    const url = `http://x.test${path.replace(/\{(\w+)\}/g, (_, name: string) => options.params?.[name] ?? "x")}${
      options.query ? `?${options.query}` : ""
    }`;
    const headers = new Headers(options.headers);
    const apiKeyHeader = options.key === undefined ? apiKey : options.key;
    if (apiKeyHeader !== null) headers.set("x-api-key", apiKeyHeader);
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      headers.set("content-type", options.contentType ?? "application/json");
    }
    const request = new Request(url, { method, headers, body });
    const response = options.via
      ? await options.via.handler(request, { clientIp: "203.0.113.9" })
      : await mailpulse.handler(request);
    const text = await response.text();
    const where = `${key} answered ${response.status} ${text.slice(0, 200)}`;

    const status = String(response.status);
    observed.set(key, (observed.get(key) ?? new Set()).add(status));
    const listed = operation.responses[status];
    expect(listed, `${where}: status not documented`).toBeDefined();
    const documentedResponse = resolve(listed!);

    const mediaTypes = Object.keys(documentedResponse.content ?? {});
    const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
    if (mediaTypes.length === 0) expect(text, `${where}: documented without a body`).toBe("");
    else expect(mediaTypes, `${where}: media type`).toContain(contentType);

    for (const [name, header] of Object.entries(documentedResponse.headers ?? {})) {
      if (header.required) expect(response.headers.has(name), `${where}: header ${name}`).toBe(true);
    }

    let json: unknown;
    if (contentType === "application/json") {
      json = JSON.parse(text);
      const schema = documentedResponse.content?.["application/json"]?.schema;
      if (schema) expect(schemaErrors(schema, json, "body"), where).toEqual([]);
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  /** The status of {@link call}'s answer (checked against the document all the same). */
  async function statusOf(key: string, options?: CallOptions): Promise<number> {
    return (await call(key, options)).status;
  }

  function requestExample(key: string): unknown {
    const media = operationFor(key).operation.requestBody?.content["application/json"];
    const first = media ? examplesOf(media)[0] : undefined;
    if (!first) throw new Error(`${key} has no request example`);
    return first[1];
  }

  it("routes every documented operation: 401 without or with a wrong key when secured, never the router's 404/405", async () => {
    for (const { key, operation } of documented) {
      const secured = effectiveSecurity(operation).length > 0;
      for (const apiKeyHeader of secured ? [null, "mp_not-a-key"] : [null]) {
        const answer = await call(key, { key: apiKeyHeader });
        expect(answer.status, key).not.toBe(405);
        if (answer.status === 404 && typeof answer.json === "object" && answer.json !== null) {
          expect((answer.json as { error: string }).error, key).not.toMatch(/^No route for/);
        }
        if (secured) expect(answer.json, key).toEqual({ error: "Unauthorized" });
        else expect(answer.status, key).not.toBe(401);
      }
    }
  });

  it("answers every operation's success as documented", async () => {
    const created = await call("POST /api/campaigns", { body: requestExample("POST /api/campaigns") });
    expect(created.status).toBe(201);
    const campaignId = (created.json as { id: string }).id;

    const sent = await call("POST /api/send", { body: requestExample("POST /api/send") });
    expect(sent.status).toBe(200);
    const sendResult = sent.json as {
      emailId: string;
      emailTrackingId: string;
      links: Array<{ trackingId: string }>;
    };
    expect(sendResult.links).toHaveLength(1);
    expect(await statusOf("GET /api/emails/{id}", { params: { id: sendResult.emailId } })).toBe(200);
    const emailPage = await call("GET /api/emails", { query: "limit=1" });
    expect((emailPage.json as { data: Array<{ id: string }> }).data[0]?.id).toBe(sendResult.emailId);
    expect(await statusOf("GET /api/emails", { query: "status=lost" })).toBe(400);
    await call("POST /api/send", {
      body: { from: "ann@acme.example", to: "carol@example.com", subject: "Hi", htmlContent: "<p>Hi</p>" },
    });

    const registered = await call("POST /api/emails", { body: requestExample("POST /api/emails") });
    expect(registered.status).toBe(201);
    const registerResult = registered.json as { html: string; pixelUrl: string; links: unknown[] };
    expect(registerResult.html).toContain(registerResult.pixelUrl);
    expect(registerResult.links).toHaveLength(1);

    expect(
      await statusOf("GET /api/t/o/{id}", { key: null, params: { id: sendResult.emailTrackingId } }),
    ).toBe(200);
    const click = await call("GET /api/t/c/{id}", {
      key: null,
      params: { id: sendResult.links[0]!.trackingId },
    });
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://acme.example/sale");

    expect(await statusOf("GET /api/campaigns")).toBe(200);
    expect(await statusOf("GET /api/campaigns/{id}", { params: { id: campaignId } })).toBe(200);
    const stats = await call("GET /api/campaigns/{id}/stats", {
      params: { id: campaignId },
      query: "period=7d",
    });
    expect(stats.status).toBe(200);
    expect(await statusOf("GET /api/stats")).toBe(200);
    const links = await call("GET /api/campaigns/{id}/links", { params: { id: campaignId } });
    expect(links.status).toBe(200);

    const page = await call("GET /api/contacts", { query: "limit=1" });
    expect(page.status).toBe(200);
    expect(page.headers.get("link")).toMatch(/^<http:\/\/x\.test\/api\/contacts\?.*>; rel="next"$/);
    const contact = await call("GET /api/contacts/{email}", {
      params: { email: encodeURIComponent("bob@example.com") },
    });
    expect(contact.status).toBe(200);
    expect((contact.json as { timeline: unknown[] }).timeline.length).toBeGreaterThan(0);

    expect(await statusOf("POST /api/campaigns/{id}/archive", { params: { id: campaignId } })).toBe(200);
  });

  it("answers every documented error as documented", async () => {
    const badEncoding = "%E0%A4%A";
    const tooLong = "a".repeat(400);
    const oversized = { name: "x".repeat(maxBodyBytes) };
    const email = (campaignId: string, subject = "Hello") => ({
      from: "ann@acme.example",
      to: "dave@example.com",
      subject,
      htmlContent: "<p>Hello</p>",
      campaignId,
    });

    // Campaign creation: duplicate (archived campaigns keep their name), invalid bodies, then
    // new campaigns up to the plan limit.
    const spring = requestExample("POST /api/campaigns") as { name: string };
    expect(await statusOf("POST /api/campaigns", { body: spring })).toBe(409);
    expect(await statusOf("POST /api/campaigns", { body: {} })).toBe(400);
    expect(await statusOf("POST /api/campaigns", { body: '{"name": }' })).toBe(400);
    expect(await statusOf("POST /api/campaigns", { body: "name=x", contentType: "text/plain" })).toBe(415);
    expect(await statusOf("POST /api/campaigns", { body: oversized })).toBe(413);
    const renamed = await call("POST /api/campaigns", { body: { name: "To rename" } });
    const renameOf = { id: (renamed.json as { id: string }).id };
    expect(
      await statusOf("PATCH /api/campaigns/{id}", {
        params: renameOf,
        body: requestExample("PATCH /api/campaigns/{id}"),
      }),
    ).toBe(200);
    expect(await statusOf("PATCH /api/campaigns/{id}", { params: renameOf, body: spring })).toBe(409);
    expect(await statusOf("PATCH /api/campaigns/{id}", { params: renameOf, body: {} })).toBe(400);
    expect(await statusOf("PATCH /api/campaigns/{id}", { params: { id: badEncoding }, body: spring })).toBe(
      400,
    );
    expect(await statusOf("PATCH /api/campaigns/{id}", { params: { id: "nope" }, body: spring })).toBe(404);
    expect(
      await statusOf("PATCH /api/campaigns/{id}", {
        params: renameOf,
        body: "name=x",
        contentType: "text/plain",
      }),
    ).toBe(415);
    expect(await statusOf("PATCH /api/campaigns/{id}", { params: renameOf, body: oversized })).toBe(413);
    const third = await call("POST /api/campaigns", { body: { name: "Third" } });
    expect(third.status).toBe(201);
    const thirdId = (third.json as { id: string }).id;
    let extra = await call("POST /api/campaigns", { body: { name: "Extra 0" } });
    for (let index = 1; extra.status === 201 && index <= maxCampaigns; index++) {
      extra = await call("POST /api/campaigns", { body: { name: `Extra ${index}` } });
    }
    expect(extra.status).toBe(403);

    // Sending and registering.
    for (const key of ["POST /api/send", "POST /api/emails"]) {
      expect(await statusOf(key), key).toBe(400);
      expect(await statusOf(key, { body: { to: "nobody" } }), key).toBe(400);
      expect(await statusOf(key, { body: "<p>", contentType: "text/html" }), key).toBe(415);
      expect(
        await statusOf(key, { body: { ...email("Third"), htmlContent: "x".repeat(maxBodyBytes) } }),
        key,
      ).toBe(413);
      expect(await statusOf(key, { body: email("A new campaign past the limit") }), key).toBe(403);
    }
    const failed = await call("POST /api/send", { body: email("Third", "provider refuses") });
    expect(failed.json).toEqual({ error: expect.stringMatching(/^Email delivery failed \(email [\w-]+\)$/) });

    // Idempotency: a key reused with another body (422), a key whose first request is in flight
    // beyond the wait or was cut off by a crash (409: a claim older than staleAfterMs, made here
    // through the store since no test can kill this process), a malformed key (400).
    const organizationId = (await mailpulse.organizations.list())[0]!.id;
    for (const key of ["POST /api/send", "POST /api/emails"]) {
      const headers = { "idempotency-key": `reused ${key}` };
      expect(await statusOf(key, { body: email("Third"), headers }), key).toBe(
        key.endsWith("send") ? 200 : 201,
      );
      expect(await statusOf(key, { body: email("Third", "Other"), headers }), key).toBe(422);
      const longAgo = new Date(Date.now() - 60 * 60 * 1000);
      await storage.idempotencyKeys.claim(organizationId, `crashed ${key}`, {
        fingerprint: requestFingerprint(key.replace("/api", ""), email("Third")),
        now: longAgo,
        expiresAt: new Date(longAgo.getTime() + 24 * 60 * 60 * 1000),
      });
      const crashed = { "idempotency-key": `crashed ${key}` };
      expect(await statusOf(key, { body: email("Third"), headers: crashed }), key).toBe(409);
      const malformed = { "idempotency-key": "x".repeat(257) };
      expect(await statusOf(key, { body: email("Third"), headers: malformed }), key).toBe(400);
    }

    // Archiving, and what an archived campaign refuses.
    expect(await statusOf("POST /api/campaigns/{id}/archive", { params: { id: thirdId } })).toBe(200);
    expect(await statusOf("POST /api/campaigns/{id}/archive", { params: { id: thirdId } })).toBe(400);
    expect(await statusOf("POST /api/send", { body: email("Third") })).toBe(400);
    expect(await statusOf("POST /api/emails", { body: email("Third") })).toBe(400);

    // Unknown resources and malformed parameters.
    for (const key of [
      "GET /api/campaigns/{id}",
      "POST /api/campaigns/{id}/archive",
      "GET /api/campaigns/{id}/stats",
      "GET /api/emails/{id}",
      "GET /api/campaigns/{id}/links",
    ]) {
      expect(await statusOf(key, { params: { id: "nope" } }), key).toBe(404);
      expect(await statusOf(key, { params: { id: badEncoding } }), key).toBe(400);
    }
    expect(
      (
        await call("GET /api/campaigns/{id}/stats", {
          params: { id: thirdId },
          query: "period=2026-02-30,2026-03-01",
        })
      ).status,
    ).toBe(400);
    expect(
      await statusOf("GET /api/campaigns/{id}/links", { params: { id: thirdId }, query: "limit=0" }),
    ).toBe(400);
    expect(await statusOf("GET /api/contacts", { query: "limit=1001" })).toBe(400);
    expect(await statusOf("GET /api/contacts", { query: "cursor=nope" })).toBe(400);
    expect(await statusOf("GET /api/contacts/{email}", { params: { email: "nobody%40example.com" } })).toBe(
      404,
    );
    expect(await statusOf("GET /api/contacts/{email}", { params: { email: tooLong } })).toBe(400);
    expect(await statusOf("GET /api/t/o/{id}", { key: null, params: { id: "unknown" } })).toBe(200);
    expect(await statusOf("GET /api/t/o/{id}", { key: null, params: { id: tooLong } })).toBe(200);
    expect(await statusOf("GET /api/t/c/{id}", { key: null, params: { id: "unknown" } })).toBe(404);
    expect(await statusOf("GET /api/t/c/{id}", { key: null, params: { id: tooLong } })).toBe(404);
  });

  it("answers the domain operations and their errors as documented", async () => {
    type Created = { id: string; records: Array<{ type: string; name: string; value: string }> };
    const publish = (records: Created["records"]) => {
      for (const { type, name, value } of records) {
        if (type === "MX") dns.add(name, { type: "MX", value, priority: 10 });
        if (type === "TXT") dns.add(name, { type: "TXT", value });
        if (type === "CNAME") dns.add(name, { type: "CNAME", value });
      }
    };
    const example = requestExample("POST /api/sending-domains");
    const created = await call("POST /api/sending-domains", { body: example });
    expect(created.status).toBe(201);
    const mine = created.json as Created;
    // Pending in this organization: the other one may add it too, and loses the race to verify.
    const theirs = (await call("POST /api/sending-domains", { key: otherKey, body: example }))
      .json as Created;
    expect(await statusOf("GET /api/sending-domains")).toBe(200);
    expect(await statusOf("GET /api/sending-domains", { query: "limit=201" })).toBe(400);
    expect(await statusOf("POST /api/sending-domains", { body: example })).toBe(409);
    publish(mine.records);
    const verified = await call("POST /api/sending-domains/verify", { body: { domainId: mine.id } });
    expect((verified.json as { verified: boolean }).verified).toBe(true);
    dns.remove(mine.records[2]!.name);
    publish(theirs.records);
    expect(
      await statusOf("POST /api/sending-domains/verify", { key: otherKey, body: { domainId: theirs.id } }),
    ).toBe(409);
    for (const key of [
      "POST /api/sending-domains",
      "POST /api/sending-domains/verify",
      "POST /api/organizations/domain",
    ]) {
      expect(await statusOf(key, { body: {} }), key).toBe(400);
      expect(await statusOf(key, { body: "domain=x", contentType: "text/plain" }), key).toBe(415);
      expect(await statusOf(key, { body: { domain: "x".repeat(maxBodyBytes) } }), key).toBe(413);
    }
    expect(await statusOf("POST /api/sending-domains/verify", { body: { domainId: "nope" } })).toBe(404);
    expect(await statusOf("DELETE /api/sending-domains/{id}", { params: { id: "nope" } })).toBe(404);
    expect(await statusOf("DELETE /api/sending-domains/{id}", { params: { id: "%E0%A4%A" } })).toBe(400);
    expect(await statusOf("DELETE /api/sending-domains/{id}", { params: { id: mine.id } })).toBe(200);

    expect(await statusOf("POST /api/organizations/domain/verify")).toBe(404);
    const track = requestExample("POST /api/organizations/domain") as { domain: string };
    expect(await statusOf("POST /api/organizations/domain", { body: track })).toBe(200);
    expect(await statusOf("POST /api/organizations/domain", { key: otherKey, body: track })).toBe(400);
    expect((await call("POST /api/organizations/domain/verify")).json).toMatchObject({ verified: false });
    dns.add(track.domain, { type: "CNAME", value: "track.x.test" });
    expect((await call("POST /api/organizations/domain/verify")).json).toMatchObject({ verified: true });
    expect(await statusOf("GET /api/organizations/domain")).toBe(200);
    expect(await statusOf("DELETE /api/organizations/domain")).toBe(200);
  });

  it("answers the webhook and event operations and their errors as documented", async () => {
    const example = requestExample("POST /api/webhooks") as { events: string[] };
    const created = await call("POST /api/webhooks", { body: { ...example, url: receiver.url } });
    expect(created.status).toBe(201);
    const webhook = created.json as { id: string };
    const failing = await call("POST /api/webhooks", { body: { ...example, url: `${receiver.url}/fail` } });
    const failingId = (failing.json as { id: string }).id;
    expect(await statusOf("GET /api/webhooks")).toBe(200);
    expect(await statusOf("POST /api/webhooks", { body: { ...example, url: "http://example.com/" } })).toBe(
      400,
    );
    expect(await statusOf("POST /api/webhooks", { body: "url=x", contentType: "text/plain" })).toBe(415);
    expect(await statusOf("POST /api/webhooks", { body: { url: "x".repeat(maxBodyBytes) } })).toBe(413);

    const id = { id: webhook.id };
    expect(await statusOf("PATCH /api/webhooks/{id}", { params: id, body: { isActive: true } })).toBe(200);
    expect(await statusOf("PATCH /api/webhooks/{id}", { params: id, body: { events: [] } })).toBe(400);
    expect(await statusOf("PATCH /api/webhooks/{id}", { params: { id: "nope" }, body: {} })).toBe(404);
    expect(
      await statusOf("PATCH /api/webhooks/{id}", { params: id, body: "x", contentType: "text/plain" }),
    ).toBe(415);
    expect(
      await statusOf("PATCH /api/webhooks/{id}", { params: id, body: { url: "x".repeat(maxBodyBytes) } }),
    ).toBe(413);
    expect(await statusOf("POST /api/webhooks/{id}/rotate-secret", { params: id })).toBe(200);
    expect(await statusOf("POST /api/webhooks/{id}/rotate-secret", { params: { id: "nope" } })).toBe(404);
    expect((await call("POST /api/webhooks/{id}/test", { params: id })).json).toMatchObject({
      success: true,
    });
    expect(await statusOf("POST /api/webhooks/{id}/test", { params: { id: "nope" } })).toBe(404);

    // An event for both webhooks, delivered to one and failed at the other.
    await call("POST /api/send", {
      body: { from: "ann@acme.example", to: "erin@example.com", subject: "Hook", htmlContent: "<p>x</p>" },
    });
    expect(await mailpulse.deliverWebhooks()).toBe(2);
    const deliveries = await call("GET /api/webhooks/{id}/deliveries", { params: id, query: "limit=10" });
    const [delivered] = (deliveries.json as { data: Array<{ id: string; state: string }> }).data;
    expect(delivered?.state).toBe("delivered");
    expect(await statusOf("GET /api/webhooks/{id}/deliveries", { params: id, query: "limit=0" })).toBe(400);
    expect(await statusOf("GET /api/webhooks/{id}/deliveries", { params: { id: "nope" } })).toBe(404);
    const deliveryOf = (webhookId: string, deliveryId: string) => ({ id: webhookId, deliveryId });
    expect(
      await statusOf("GET /api/webhooks/{id}/deliveries/{deliveryId}", {
        params: deliveryOf(webhook.id, delivered!.id),
      }),
    ).toBe(200);
    expect(
      await statusOf("GET /api/webhooks/{id}/deliveries/{deliveryId}", {
        params: deliveryOf(webhook.id, "999"),
      }),
    ).toBe(404);
    const retry = "POST /api/webhooks/{id}/deliveries/{deliveryId}/retry";
    expect(await statusOf(retry, { params: deliveryOf(webhook.id, delivered!.id) })).toBe(409);
    expect(await statusOf(retry, { params: deliveryOf(webhook.id, "nope") })).toBe(404);
    const failed = await call("GET /api/webhooks/{id}/deliveries", { params: { id: failingId } });
    const [failedDelivery] = (failed.json as { data: Array<{ id: string; state: string }> }).data;
    expect(failedDelivery?.state).toBe("failed");
    expect(await statusOf(retry, { params: deliveryOf(failingId, failedDelivery!.id) })).toBe(200);

    const events = await call("GET /api/events", { query: "type=EMAIL_SENT&limit=1" });
    expect(events.status).toBe(200);
    expect(await statusOf("GET /api/events", { query: "type=EMAIL_DELIVERED" })).toBe(400);

    expect(await statusOf("DELETE /api/webhooks/{id}", { params: id })).toBe(200);
    expect(await statusOf("DELETE /api/webhooks/{id}", { params: id })).toBe(404);
  });

  it("answers the suppression operations and their errors as documented", async () => {
    const added = await call("POST /api/suppressions", { body: requestExample("POST /api/suppressions") });
    expect(added.json).toEqual({ added: 2, alreadySuppressed: 0 });
    expect(await statusOf("POST /api/suppressions", { body: { addresses: ["nobody"] } })).toBe(400);
    expect(await statusOf("POST /api/suppressions", { body: "x", contentType: "text/plain" })).toBe(415);
    expect(
      await statusOf("POST /api/suppressions", { body: { addresses: ["x".repeat(maxBodyBytes)] } }),
    ).toBe(413);
    const page = await call("GET /api/suppressions", { query: "limit=1" });
    expect((page.json as { nextCursor: string | null }).nextCursor).toBe("ann@example.com");
    expect(await statusOf("GET /api/suppressions", { query: "reason=bounced" })).toBe(400);
    for (const address of ["ann@example.com", "bob@example.com"]) {
      const params = { address: encodeURIComponent(address) };
      expect(await statusOf("DELETE /api/suppressions/{address}", { params })).toBe(200);
      expect(await statusOf("DELETE /api/suppressions/{address}", { params })).toBe(404);
    }

    const unsubscribe = "POST /api/emails/{emailTrackingId}/unsubscribe";
    const sent = await call("POST /api/send", {
      body: { from: "ann@acme.example", to: "bob@example.com", subject: "Hi", htmlContent: "<p>Hi</p>" },
    });
    expect(sent.status).toBe(200);
    const params = { emailTrackingId: (sent.json as { emailTrackingId: string }).emailTrackingId };
    expect(await statusOf(unsubscribe, { params, body: requestExample(unsubscribe) })).toBe(200);
    expect(await statusOf(unsubscribe, { params, body: { recipient: "zed" } })).toBe(400);
    expect(await statusOf(unsubscribe, { params, body: { recipient: "zed@example.com" } })).toBe(422);
    expect(await statusOf(unsubscribe, { params, body: "x", contentType: "text/plain" })).toBe(415);
    expect(await statusOf(unsubscribe, { params, body: { recipient: "x".repeat(maxBodyBytes) } })).toBe(413);
    expect(await statusOf(unsubscribe, { params: { emailTrackingId: "nope" }, body: {} })).toBe(404);
  });

  it("answers the one-click unsubscribe operations and their errors as documented", async () => {
    const sent = await call("POST /api/send", {
      body: { from: "ann@acme.example", to: "cleo@example.com", subject: "News", htmlContent: "<p>News</p>" },
    });
    const trackingId = (sent.json as { emailTrackingId: string }).emailTrackingId;
    const signingKey = await mailpulse.signingKey.key();
    const token = createRecipientToken({ trackingId, recipientIndex: 0 }, "unsubscribe", signingKey);
    const params = { token };
    const forged = { token: token.replace(/^./, (first) => (first === "a" ? "b" : "a")) };
    const form = "application/x-www-form-urlencoded";
    expect(await statusOf("GET /api/u/{token}", { key: null, params })).toBe(200);
    expect(await statusOf("GET /api/u/{token}", { key: null, params: forged })).toBe(404);
    const oneClick = { key: null, body: "List-Unsubscribe=One-Click", contentType: form };
    expect((await call("POST /api/u/{token}", { ...oneClick, params })).json).toEqual({ success: true });
    expect(await statusOf("POST /api/u/{token}", { ...oneClick, params: forged })).toBe(404);
    const fromPage = { key: null, body: "source=page", contentType: form };
    expect((await call("POST /api/u/{token}", { ...fromPage, params })).text).toContain(
      "You are unsubscribed",
    );
    expect((await call("POST /api/u/{token}", { ...fromPage, params: forged })).text).toContain("not valid");
    expect(
      await statusOf("POST /api/u/{token}", { ...oneClick, params, contentType: "application/json" }),
    ).toBe(415);
    const multipart = "multipart/form-data; boundary=x";
    expect(await statusOf("POST /api/u/{token}", { ...oneClick, params, contentType: multipart })).toBe(400);
    const huge = `List-Unsubscribe=One-Click&pad=${"x".repeat(20_000)}`;
    expect(await statusOf("POST /api/u/{token}", { ...oneClick, params, body: huge })).toBe(413);
  });

  it("answers the SNS operation and its errors as documented", async () => {
    const sent = await call("POST /api/send", {
      body: { from: "ann@acme.example", to: "dan@example.com", subject: "Bounce", htmlContent: "<p>x</p>" },
    });
    const trackingId = (sent.json as { emailTrackingId: string }).emailTrackingId;
    const message = JSON.stringify({
      notificationType: "Bounce",
      bounce: {
        bounceType: "Permanent",
        bouncedRecipients: [{ emailAddress: "dan@example.com", status: "5.1.1" }],
      },
      mail: { messageId: "ses-1", headers: [{ name: "X-MailPulse-Tracking-Id", value: trackingId }] },
    });
    const envelope = {
      Type: "Notification" as const,
      MessageId: "m-1",
      TopicArn: snsTopicArn,
      Message: message,
      Timestamp: "2026-05-01T08:00:00.000Z",
    };
    const sns = (body: unknown, via?: MailPulse) =>
      statusOf("POST /api/sns", { key: null, body: JSON.stringify(body), contentType: "text/plain", via });
    expect(await sns(signSnsEnvelope(envelope))).toBe(200);
    expect(await sns(signSnsEnvelope({ ...envelope, TopicArn: `${snsTopicArn}-other` }))).toBe(403);
    expect(await sns({ ...signSnsEnvelope(envelope), Message: "{}" })).toBe(403);
    const down = "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-down.pem";
    expect(await sns(signSnsEnvelope({ ...envelope, SigningCertURL: down }))).toBe(503);
    expect(await statusOf("POST /api/sns", { key: null, body: "{x", contentType: "text/plain" })).toBe(400);
    expect(await statusOf("POST /api/sns", { key: null, body: "x".repeat(maxBodyBytes + 1) })).toBe(413);
    // The rate-limited instance has no sns option.
    expect(await sns(signSnsEnvelope(envelope), limited)).toBe(404);
  });

  it("answers the inbound log and its errors as documented", async () => {
    const page = await call("GET /api/inbound-messages", { query: "limit=10" });
    expect(page.json).toEqual({ data: [], nextCursor: null });
    expect(await statusOf("GET /api/inbound-messages", { query: "kind=spam" })).toBe(400);
  });

  it("answers every operation 429 past the rate limit, with Retry-After and the RateLimit headers", async () => {
    // One request per key and per IP: a first keyed call and a first tracking hit use both quotas up.
    await call("GET /api/campaigns", { via: limited });
    await call("GET /api/t/o/{id}", { via: limited, key: null, params: { id: "x" } });
    for (const { key, operation } of documented) {
      if (!operation.responses["429"]) continue;
      const body = operation.requestBody ? {} : undefined;
      const answer = await call(key, { via: limited, params: { id: "x" }, body });
      expect(answer.status, key).toBe(429);
      expect(answer.json, key).toEqual({
        error: expect.stringMatching(/^Rate limit exceeded: retry in \d+ s$/),
      });
    }
  });

  it("answers the health check without a key: 200 while the storage answers, 503 once it is closed", async () => {
    const healthy = await call("GET /api/health", { key: null });
    expect(healthy.json).toMatchObject({ status: "degraded", storage: { reachable: true } });
    const closedStorage = sqliteStorage({ filename: ":memory:" });
    await closedStorage.migrate();
    const down = createMailPulse({
      storage: closedStorage,
      baseUrl: "http://x.test",
      logger: { info: () => {}, error: () => {} },
    });
    await closedStorage.close();
    const answer = await call("GET /api/health", { key: null, via: down });
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({ error: "Storage is unreachable" });
  });

  it("serves itself at /api/openapi.json without a key, with this instance's address", async () => {
    const served = await call("GET /api/openapi.json", { key: null });
    expect(served.status).toBe(200);
    const expected = structuredClone(doc) as unknown as {
      servers: Array<{ variables: { baseUrl: { default: string } } }>;
    };
    expected.servers[0]!.variables.baseUrl.default = "http://x.test";
    expect(served.json).toEqual(expected);
  });

  it("has seen every documented status of every operation answered, and no other", () => {
    // The checks above ran against `call`, which refuses undocumented statuses; here the converse.
    for (const { key, operation } of documented) {
      expect([...(observed.get(key) ?? [])].sort(), key).toEqual(Object.keys(operation.responses).sort());
    }
  });
});
