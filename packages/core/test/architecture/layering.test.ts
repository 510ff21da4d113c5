import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// DESIGN.md's layering: core's folders import downward only. A folder listed here must not
// import from the folders beside it; everything else is allowed. Checked on the source text, so
// a new import that runs back up fails here before a reviewer has to spot it.
const forbidden: Record<string, readonly string[]> = {
  util: [
    "ports",
    "services",
    "http",
    "routes",
    "openapi",
    "node",
    "kysely",
    "background",
    "create-mailpulse",
  ],
  ports: ["services", "http", "routes", "openapi", "node", "kysely", "background", "create-mailpulse"],
  services: ["http", "routes", "openapi", "node", "kysely", "create-mailpulse"],
  kysely: ["services", "http", "routes", "openapi", "node", "create-mailpulse"],
  background: ["services", "http", "routes", "openapi", "node", "kysely", "create-mailpulse"],
  http: ["routes", "openapi", "node", "kysely", "create-mailpulse"],
  routes: ["node", "kysely", "create-mailpulse"],
  node: ["services", "routes", "openapi", "kysely", "background", "create-mailpulse"],
  events: [
    "services",
    "http",
    "routes",
    "openapi",
    "node",
    "kysely",
    "background",
    "webhooks",
    "create-mailpulse",
  ],
  // The classifier is pure: it reads signals and returns verdicts, and depends on nothing of ours.
  measurement: [
    "ports",
    "services",
    "http",
    "routes",
    "openapi",
    "node",
    "kysely",
    "background",
    "events",
    "webhooks",
    "create-mailpulse",
  ],
  webhooks: ["services", "http", "routes", "openapi", "node", "kysely", "background", "create-mailpulse"],
};

const sourceRoot = join(import.meta.dirname, "../../src");

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The top-level folder (or root file without extension) of core that a relative import lands in. */
function layerOf(file: string): string {
  const [first] = relative(sourceRoot, file).split("/");
  return first!.replace(/\.(ts|js)$/, "");
}

describe("core's layering", () => {
  it("has no import running back up a layer", async () => {
    const violations: string[] = [];
    for (const file of await sourceFiles(sourceRoot)) {
      const from = layerOf(file);
      const banned = forbidden[from];
      if (!banned) continue;
      const source = await readFile(file, "utf8");
      for (const match of source.matchAll(/(?:from\s+|import\s*\(?\s*)"(\.{1,2}\/[^"]+)"/g)) {
        const target = layerOf(join(file, "..", match[1]!));
        if (banned.includes(target)) violations.push(`${relative(sourceRoot, file)} imports ${match[1]}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("knows every folder it polices", async () => {
    const folders = (await readdir(sourceRoot, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    for (const layer of Object.keys(forbidden)) expect(folders).toContain(layer);
  });
});
