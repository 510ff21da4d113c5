import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// DESIGN.md's layering: core's folders import downward only, util, errors, logger and the ports
// at the bottom, create-mailpulse and the entry files at the top. Each top-level folder and root
// file of core (its "layer": `kysely/` and `kysely.ts` are one) has an entry here, listing the
// layers it must not import; everything else is allowed. A new folder must be placed here before
// its first test runs. Checked on the source text, so a new import that runs back up fails here
// before a reviewer has to spot it.
const layers = [
  "util",
  "errors",
  "logger",
  "measurement",
  "returned-mail",
  "ports",
  "html",
  "dns",
  "providers",
  "events",
  "webhooks",
  "background",
  "kysely",
  "services",
  "http",
  "openapi",
  "routes",
  "node",
  "options",
  "options-validation",
  "create-mailpulse",
  "index",
  "storage",
] as const;
type Layer = (typeof layers)[number];

/** Every layer but `allowed` (and the layer itself, whose own files are not policed). */
const allBut = (...allowed: Layer[]): Layer[] => layers.filter((layer) => !allowed.includes(layer));

/** What wires core together or is a package entry: no layer below may reach for it. */
const wiring: Layer[] = ["options", "options-validation", "create-mailpulse", "index", "storage"];

const forbidden: Record<Layer, readonly Layer[]> = {
  // The floor: small helpers, the error class and the logger shape depend on nothing of ours.
  util: allBut(),
  errors: allBut(),
  logger: allBut(),
  // The classifier is pure: it reads signals and returns verdicts, and depends on nothing of ours
  // beyond util.
  measurement: allBut("util"),
  // Classifying mail that comes back is pure too (DESIGN.md "Mail that comes back"): bytes in, a
  // verdict out, the floor at most.
  "returned-mail": allBut("util", "errors"),
  // The ports are the bottom the rest builds on: they name the verdicts they store, nothing more.
  ports: allBut("util", "errors", "logger", "measurement", "returned-mail"),
  // Byte-exact link rewriting and HTML to text: pure, errors only.
  html: allBut("util", "errors", "logger"),
  // Implementations of a port (the DNS resolver, the mail providers): the port and the floor.
  dns: allBut("util", "errors", "logger", "ports"),
  providers: allBut("util", "errors", "logger", "ports"),
  events: [
    "services",
    "http",
    "routes",
    "openapi",
    "node",
    "kysely",
    "background",
    "webhooks",
    "html",
    "dns",
    "providers",
    ...wiring,
  ],
  webhooks: [
    "services",
    "http",
    "routes",
    "openapi",
    "node",
    "kysely",
    "background",
    "html",
    "dns",
    "providers",
    ...wiring,
  ],
  background: [
    "services",
    "http",
    "routes",
    "openapi",
    "node",
    "kysely",
    "html",
    "dns",
    "providers",
    ...wiring,
  ],
  // The shared Kysely storage implements the ports; no service, transport or wiring reaches it.
  kysely: ["services", "http", "routes", "openapi", "node", "html", "dns", "providers", ...wiring],
  // Services get the DNS resolver and the mail provider through their ports, never an implementation.
  services: ["http", "routes", "openapi", "node", "kysely", "dns", "providers", ...wiring],
  http: ["routes", "openapi", "node", "kysely", "background", "html", "dns", "providers", ...wiring],
  // The OpenAPI document describes the route table's pieces; the route table imports it, not back.
  openapi: ["routes", "node", "kysely", "background", "dns", "providers", ...wiring],
  routes: ["node", "kysely", "background", "dns", "providers", ...wiring],
  // The Node bridge knows only the handler's HTTP surface.
  node: ["services", "routes", "openapi", "kysely", "background", "html", "dns", "providers", ...wiring],
  // The options' types name what the services and ports take; the wiring reads them.
  options: [
    "routes",
    "openapi",
    "node",
    "kysely",
    "options-validation",
    "create-mailpulse",
    "index",
    "storage",
  ],
  "options-validation": ["routes", "openapi", "node", "kysely", "create-mailpulse", "index", "storage"],
  // The top: wires everything but the Kysely implementation, which a host passes in as storage.
  "create-mailpulse": ["kysely", "index", "storage"],
  index: ["kysely", "storage"],
  // The storage port's entry stays light: the port's types and the id generator.
  storage: allBut("ports", "util"),
};

const packagesRoot = join(import.meta.dirname, "../../..");
const sourceRoot = join(packagesRoot, "core/src");

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The top-level folder (or root file without extension) of core that a file lands in. */
function layerOf(file: string): string {
  const [first] = relative(sourceRoot, file).split("/");
  return first!.replace(/\.(ts|js)$/, "");
}

/** The specifiers of a file's static and dynamic imports and re-exports (code, not comments). */
function importsOf(source: string): string[] {
  const code = source
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .join("\n");
  const specifiers = code.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)"([^"]+)"/g);
  return [...specifiers].map((match) => match[1]!);
}

/** The package a bare specifier names: `@scope/name` or `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** `package folder -> the packages its src imports`, for the workspace folders matching `prefix`. */
async function packagesImportedBy(prefix: string): Promise<Map<string, Set<string>>> {
  const folders = (await readdir(packagesRoot, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix))
    .map((entry) => entry.name);
  const imported = new Map<string, Set<string>>();
  for (const folder of folders) {
    const names = new Set<string>();
    for (const file of await sourceFiles(join(packagesRoot, folder, "src"))) {
      for (const specifier of importsOf(await readFile(file, "utf8")))
        if (!specifier.startsWith(".") && !specifier.startsWith("node:")) names.add(packageOf(specifier));
    }
    imported.set(folder, names);
  }
  return imported;
}

describe("core's layering", () => {
  it("has no import running back up a layer", async () => {
    const violations: string[] = [];
    for (const file of await sourceFiles(sourceRoot)) {
      const from = layerOf(file);
      const banned: readonly string[] = forbidden[from as Layer] ?? [];
      for (const specifier of importsOf(await readFile(file, "utf8"))) {
        if (!specifier.startsWith(".")) continue;
        const target = layerOf(join(file, "..", specifier));
        if (target !== from && banned.includes(target))
          violations.push(`${relative(sourceRoot, file)} imports ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("places every folder and root file of core in the table, and names no layer that is gone", async () => {
    const present = new Set(
      (await readdir(sourceRoot, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory() || entry.name.endsWith(".ts"))
        .map((entry) => entry.name.replace(/\.ts$/, "")),
    );
    expect([...present].filter((layer) => !(layer in forbidden)).sort()).toEqual([]);
    expect(layers.filter((layer) => !present.has(layer))).toEqual([]);
  });
});

describe("the packages' dependency arrows", () => {
  // DESIGN.md: arrows point from the edges (adapters, testing, storage packages) into core, never
  // back; core carries no test framework, server framework or test peer either. `smtp-server` is
  // not among them: the inbound SMTP receiver (background/inbound-smtp.ts) runs on it (DESIGN.md,
  // "Mail that comes back").
  const heavy = ["express", "fastify", "vitest", "mailparser", "dns2"];

  it("core imports no other MailPulse package, no server framework and no test tool", async () => {
    const imported = [...((await packagesImportedBy("core")).get("core") ?? [])];
    expect(imported.length).toBeGreaterThan(0);
    const foreign = imported.filter(
      (name) => (name.startsWith("@mailpulse/") && name !== "@mailpulse/core") || heavy.includes(name),
    );
    expect(foreign).toEqual([]);
  });

  it("no storage package imports another, and no adapter imports a storage package or the other adapter", async () => {
    const storages = await packagesImportedBy("storage-");
    const adapters = await packagesImportedBy("adapter-");
    expect(storages.size).toBeGreaterThanOrEqual(2);
    expect(adapters.size).toBeGreaterThanOrEqual(2);
    const violations: string[] = [];
    for (const [folder, names] of storages)
      for (const name of names)
        if (name.startsWith("@mailpulse/storage-") && name !== `@mailpulse/${folder}`)
          violations.push(`${folder} imports ${name}`);
    for (const [folder, names] of adapters)
      for (const name of names)
        if (
          name.startsWith("@mailpulse/storage-") ||
          (name.startsWith("@mailpulse/adapter-") && name !== `@mailpulse/${folder}`) ||
          name === "@mailpulse/testing"
        )
          violations.push(`${folder} imports ${name}`);
    expect(violations).toEqual([]);
  });
});
