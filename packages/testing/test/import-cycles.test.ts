import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { expect, it } from "vitest";

// The suites are many small modules that share fixtures and types; a loop between two of them
// (storage-contract.ts and tracking-store-contract.ts once took each other's types) makes the
// load order matter and the pieces impossible to run alone. Type-only imports count here too.
const sourceRoot = join(import.meta.dirname, "../src");

async function importGraph(): Promise<Map<string, string[]>> {
  const entries = await readdir(sourceRoot, { withFileTypes: true, recursive: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = await readFile(file, "utf8");
    const specifiers = [...source.matchAll(/\bfrom\s+"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1]!);
    graph.set(
      relative(sourceRoot, file),
      specifiers.map((specifier) =>
        relative(sourceRoot, join(dirname(file), specifier.replace(/\.js$/, ".ts"))),
      ),
    );
  }
  return graph;
}

it("has no import cycle between the test kit's modules", async () => {
  const graph = await importGraph();
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]): void => {
    const seenAt = path.indexOf(file);
    if (seenAt !== -1) {
      cycles.push([...path.slice(seenAt), file].join(" -> "));
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  expect(graph.size).toBeGreaterThan(20);
  expect(cycles).toEqual([]);
});
