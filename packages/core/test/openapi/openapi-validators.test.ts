/**
 * docs/openapi.json, and the document an instance serves at /api/openapi.json, through two
 * independent real validators: @readme/openapi-parser and @apidevtools/swagger-parser (each reads
 * the OpenAPI 3.1 schema its own way; swagger-parser once refused a `description` on the server
 * variable that the other accepted).
 */
import { readFile } from "node:fs/promises";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { validate as readmeValidate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";

const committed = JSON.parse(
  await readFile(new URL("../../../../docs/openapi.json", import.meta.url), "utf8"),
);

async function servedDocument(): Promise<Record<string, unknown>> {
  const storage = sqliteStorage({ filename: ":memory:" });
  const mailpulse = createMailPulse({
    storage,
    baseUrl: "https://mail.example.com/mp",
    logger: { info() {}, error() {} },
  });
  try {
    const response = await mailpulse.handler(new Request("http://host.internal/api/openapi.json"));
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  } finally {
    await mailpulse.stop();
    await storage.close();
  }
}

describe("the OpenAPI document under real validators", () => {
  for (const [name, load] of [
    ["docs/openapi.json", async () => committed],
    ["the served /api/openapi.json", servedDocument],
  ] as const) {
    it(`${name} passes @readme/openapi-parser`, async () => {
      const result = await readmeValidate(structuredClone(await load()));
      expect(result).toMatchObject({ valid: true, specification: "OpenAPI" });
      expect(result.warnings).toEqual([]);
    });

    it(`${name} passes @apidevtools/swagger-parser`, async () => {
      // It dereferences in place: give it a copy.
      await expect(SwaggerParser.validate(structuredClone(await load()))).resolves.toBeDefined();
    });
  }

  it("serves the server address it was reached at", async () => {
    const served = (await servedDocument()) as {
      servers: Array<{ variables: { baseUrl: { default: string } } }>;
    };
    expect(served.servers[0]!.variables.baseUrl.default).toBe("https://mail.example.com/mp");
  });
});
