import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

// `@mailpulse/core/testing` is what a host app's tests import: it must load with core's own
// dependencies alone, without vitest, smtp-server, mailparser, dns2, express or fastify installed.
// Checked on the source text, following every relative import (type-only ones left out, since
// they vanish from the build).
const coreRoot = join(import.meta.dirname, "../..");

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

describe("@mailpulse/core/testing", () => {
  it("imports nothing beyond Node and core's own dependencies", async () => {
    const manifest = JSON.parse(await readFile(join(coreRoot, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const imported = await packagesImportedFrom(join(coreRoot, "src/testing.ts"));
    const foreign = [...imported].filter(
      (name) => !name.startsWith("node:") && !(name in manifest.dependencies),
    );
    expect(foreign).toEqual([]);
    // The walk itself reaches the heavy entries' packages, so an empty list above means something.
    const contracts = await packagesImportedFrom(join(coreRoot, "src/testing-contracts.ts"));
    expect([...contracts]).toEqual(expect.arrayContaining(["vitest", "express", "fastify"]));
    const peers = await packagesImportedFrom(join(coreRoot, "src/testing-peers.ts"));
    expect([...peers]).toEqual(expect.arrayContaining(["smtp-server", "mailparser", "dns2"]));
  });
});
