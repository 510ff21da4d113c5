import { createOpenApiDocument, type MailPulseRoute, type OperationDocs } from "@mailpulse/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const thingDocs: OperationDocs = {
  tags: ["Things"],
  operationId: "getThing",
  summary: "A thing",
  parameters: {
    id: { description: "The thing's id.", schema: { type: "string" } },
    verbose: { description: "More detail.", schema: { type: "string" } },
  },
  responses: { 200: { description: "The thing." } },
};

const getThing: MailPulseRoute = {
  method: "GET",
  path: "/things/:id",
  params: z.object({ id: z.string() }),
  query: z.object({ verbose: z.string().optional() }),
  docs: thingDocs,
};

type JsonMap = Record<string, Record<string, Record<string, Record<string, unknown>>>>;

describe("createOpenApiDocument", () => {
  it("takes paths, security, parameters and the implied answers from the route table", () => {
    const created: MailPulseRoute = {
      method: "POST",
      path: "/things",
      input: { from: "body", schema: z.object({ name: z.string() }) },
      status: 201,
      docs: {
        tags: ["Things"],
        operationId: "createThing",
        summary: "Create a thing",
        requestBody: { schema: { type: "object" } },
        responses: { 201: { description: "Created." }, 400: { description: "Invalid." } },
      },
    };
    const publicThing: MailPulseRoute = { ...getThing, path: "/public/:id", auth: "none" };
    const paths = createOpenApiDocument([getThing, created, publicThing], { basePath: "/v1/" })
      .paths as unknown as JsonMap;

    expect(Object.keys(paths)).toEqual(["/v1/things/{id}", "/v1/things", "/v1/public/{id}"]);
    const get = paths["/v1/things/{id}"]!.get!;
    expect(get.parameters).toEqual([
      { name: "id", in: "path", required: true, ...thingDocs.parameters!.id },
      { name: "verbose", in: "query", required: false, ...thingDocs.parameters!.verbose },
    ]);
    expect(Object.keys(get.responses as object)).toEqual(["200", "401", "429"]);
    expect(get.security).toBeUndefined();

    const post = paths["/v1/things"]!.post!;
    expect(post.requestBody).toEqual({
      required: true,
      content: { "application/json": { schema: { type: "object" } } },
    });
    expect(Object.keys(post.responses as object)).toEqual(["201", "400", "401", "413", "415", "429"]);

    // Public and not a tracking (direct) route: no key, so neither 401 nor 429.
    const open = paths["/v1/public/{id}"]!.get!;
    expect(open.security).toEqual([]);
    expect(Object.keys(open.responses as object)).toEqual(["200"]);
  });

  it("refuses a route without docs, and docs that contradict their route", () => {
    const { docs: _docs, ...undocumented } = getThing;
    const withDocs = (docs: Partial<OperationDocs>): MailPulseRoute => ({
      ...getThing,
      docs: { ...thingDocs, ...docs },
    });
    expect(() => createOpenApiDocument([undocumented])).toThrow(/GET \/api\/things\/\{id\} has no docs/);
    expect(() => createOpenApiDocument([withDocs({ parameters: { id: {} } })])).toThrow(
      /query parameter "verbose" has no docs/,
    );
    expect(() =>
      createOpenApiDocument([withDocs({ parameters: { ...thingDocs.parameters, extra: {} } })]),
    ).toThrow(/undeclared parameters extra/);
    expect(() => createOpenApiDocument([withDocs({ requestBody: {} })])).toThrow(/request body/);
    expect(() => createOpenApiDocument([withDocs({ responses: { 201: { description: "?" } } })])).toThrow(
      /answers 200 on success; its docs list 201/,
    );
  });

  it("takes schemas from the route's zod: parameters with their .describe(), the body and its components", () => {
    const thing = z.strictObject({ name: z.string().max(20) }).meta({ id: "TestThingRequest" });
    const created: MailPulseRoute = {
      method: "POST",
      path: "/things/:id",
      params: z.object({ id: z.string().max(9) }),
      query: z.object({ dryRun: z.string().optional().describe("Check only.") }),
      input: { from: "body", schema: thing },
      docs: {
        tags: ["Things"],
        operationId: "createThingById",
        summary: "Create a thing",
        parameters: { id: { description: "The thing's id." } },
        responses: { 200: { description: "Created.", content: { "application/json": { schema: thing } } } },
      },
    };
    const document = createOpenApiDocument([created]) as unknown as {
      paths: JsonMap;
      components: { schemas: Record<string, unknown> };
    };
    const post = document.paths["/api/things/{id}"]!.post!;
    expect(post.parameters).toEqual([
      {
        name: "id",
        in: "path",
        required: true,
        description: "The thing's id.",
        schema: { type: "string", maxLength: 9 },
      },
      {
        name: "dryRun",
        in: "query",
        required: false,
        description: "Check only.",
        schema: { type: "string" },
      },
    ]);
    const ref = { $ref: "#/components/schemas/TestThingRequest" };
    expect(post.requestBody).toEqual({ required: true, content: { "application/json": { schema: ref } } });
    expect(document.components.schemas.TestThingRequest).toEqual({
      type: "object",
      properties: { name: { type: "string", maxLength: 20 } },
      required: ["name"],
      additionalProperties: false,
    });
  });
});
