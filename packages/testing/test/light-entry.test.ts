import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

// `@mailpulse/testing` is what a host app's tests import: it must load with its dependencies
// alone (core), without vitest, smtp-server, mailparser, dns2, express or fastify installed; those
// are optional peers, for the contracts and peers entries only. Checked on the source text,
// following every relative import (type-only ones left out, since they vanish from the build).
const packageRoot = join(import.meta.dirname, "..");

/** The packages reached from `entry` through its value imports, relative ones followed. */
async function packagesImportedFrom(entry: string): Promise<Set<string>> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = await readFile(file, "utf8");
    const imports = source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)";/gms);
    const dynamic = source.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g);
    for (const [, specifier] of [...imports, ...dynamic]) {
      if (specifier!.startsWith(".")) pending.push(join(dirname(file), specifier!.replace(/\.js$/, ".ts")));
      else
        packages.add(
          specifier!.startsWith("@")
            ? specifier!.split("/").slice(0, 2).join("/")
            : specifier!.split("/")[0]!,
        );
    }
  }
  return packages;
}

interface Manifest {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}

const manifest = async () =>
  JSON.parse(await readFile(join(packageRoot, "package.json"), "utf8")) as Manifest;

describe("@mailpulse/testing", () => {
  it("imports nothing beyond Node and its own dependencies from the main entry", async () => {
    const { dependencies } = await manifest();
    const imported = await packagesImportedFrom(join(packageRoot, "src/index.ts"));
    const foreign = [...imported].filter((name) => !name.startsWith("node:") && !(name in dependencies));
    expect(foreign).toEqual([]);
    // The walk itself reaches the heavy entries' packages, so an empty list above means something.
    const contracts = await packagesImportedFrom(join(packageRoot, "src/contracts.ts"));
    expect([...contracts]).toEqual(expect.arrayContaining(["vitest", "express", "fastify"]));
    const peers = await packagesImportedFrom(join(packageRoot, "src/peers.ts"));
    expect([...peers]).toEqual(expect.arrayContaining(["smtp-server", "mailparser", "dns2"]));
  });

  it("declares every package its heavy entries load, beyond core as an optional peer", async () => {
    const { dependencies, peerDependencies, peerDependenciesMeta } = await manifest();
    const loaded = new Set([
      ...(await packagesImportedFrom(join(packageRoot, "src/contracts.ts"))),
      ...(await packagesImportedFrom(join(packageRoot, "src/peers.ts"))),
    ]);
    const undeclared = [...loaded].filter(
      (name) => !name.startsWith("node:") && !(name in dependencies) && !(name in peerDependencies),
    );
    expect(undeclared).toEqual([]);
    // The adapters are loaded on demand by startTestServer: declared, but never required.
    for (const name of ["@mailpulse/adapter-express", "@mailpulse/adapter-fastify", "vitest", "dns2"])
      expect(peerDependenciesMeta[name]?.optional).toBe(true);
  });
});
