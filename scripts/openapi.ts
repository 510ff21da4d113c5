/**
 * `npm run openapi`: writes docs/openapi.json from the route table (`createOpenApiDocument` over
 * `mailpulse.routes`), then formats it with Biome like every other file. Run it after changing a
 * route or its docs; the OpenAPI test fails until the committed file matches.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createMailPulse, createOpenApiDocument } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";

const target = fileURLToPath(new URL("../docs/openapi.json", import.meta.url));

// The routes need an instance's services; nothing is stored, so an unmigrated in-memory database will do.
const storage = sqliteStorage({ filename: ":memory:" });
const mailpulse = createMailPulse({
  storage,
  baseUrl: "http://localhost:3000",
  logger: { info() {}, error() {} },
});
try {
  writeFileSync(target, `${JSON.stringify(createOpenApiDocument(mailpulse.routes), null, 2)}\n`);
} finally {
  await mailpulse.stop();
  await storage.close();
}
execFileSync("npx", ["biome", "format", "--write", target], { stdio: "inherit" });
console.log(`Wrote ${target}`);
