import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// What `npm publish` ships and what a new user's tooling reads: a README and the LICENSE in each
// package, the metadata npm shows, and types that resolve under every moduleResolution
// (`exports` for node16/nodenext/bundler, top-level `types` and `typesVersions` for node10).
// The packed-tarball trial itself is manual (docs/packaging.md); these are its preconditions.
const repositoryRoot = join(import.meta.dirname, "../../../..");
const packages = [
  "core",
  "storage-sqlite",
  "storage-postgres",
  "adapter-express",
  "adapter-fastify",
  "testing",
];

interface ExportTarget {
  source: string;
  import: { types: string; default: string };
  require: { types: string; default: string };
}
interface Manifest {
  name: string;
  license: string;
  repository: { type: string; url: string; directory: string };
  engines: { node: string };
  publishConfig: { access: string };
  main: string;
  types: string;
  typesVersions?: Record<string, Record<string, string[]>>;
  exports: Record<string, ExportTarget>;
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
}

/** npm's own range matcher (a dependency of npm's tooling in this repository); typed here. */
const semver = createRequire(import.meta.url)("semver") as {
  satisfies(version: string, range: string): boolean;
};
/** The oldest Node the packages declare (`engines.node`), which every dependency must run on. */
const oldestNode = "20.19.0";

describe.each(packages)("the published package in packages/%s", (folder) => {
  const read = (file: string) => readFile(join(repositoryRoot, "packages", folder, file), "utf8");
  const manifest = async () => JSON.parse(await read("package.json")) as Manifest;

  it("ships the repository's LICENSE and a README of its own", async () => {
    expect(await read("LICENSE")).toBe(await readFile(join(repositoryRoot, "LICENSE"), "utf8"));
    expect(await read("LICENSE")).toContain("Copyright (c) 2026 MailPulse contributors");
    const { name } = await manifest();
    expect((await read("README.md")).startsWith(`# ${name}\n`)).toBe(true);
  });

  it("says where it comes from, which Node it needs, and that it is public", async () => {
    const { license, repository, engines, publishConfig } = await manifest();
    expect(license).toBe("MIT");
    expect(repository).toMatchObject({ type: "git", directory: `packages/${folder}` });
    expect(engines.node).toBe(">=20.19");
    expect(publishConfig.access).toBe("public");
  });

  // Issue 30, trap 6: `npm pack` without a build shipped a tarball without dist/.
  it("builds itself before it is packed (prepack)", async () => {
    const { scripts } = await manifest();
    expect(scripts.prepack).toBe("npm run build");
    expect(scripts.build).toBe("tsup");
  });

  // Issue 30, trap 10: a dependency that declares a newer Node than the package says it needs.
  it(`has no dependency whose engines exclude Node ${oldestNode}`, async () => {
    const { dependencies } = await manifest();
    for (const name of Object.keys(dependencies ?? {})) {
      if (name.startsWith("@mailpulse/")) continue;
      const installed = [
        join(repositoryRoot, "packages", folder, "node_modules", name),
        join(repositoryRoot, "node_modules", name),
      ]
        .map((where) => join(where, "package.json"))
        .find((file) => existsSync(file));
      expect(installed, `${name} is installed`).toBeDefined();
      const engines = (JSON.parse(await readFile(installed!, "utf8")) as { engines?: { node?: string } })
        .engines;
      if (engines?.node === undefined) continue;
      expect(semver.satisfies(oldestNode, engines.node), `${name} declares node ${engines.node}`).toBe(true);
    }
  });

  it("declares types for node10 resolution: the root through `types`, each subpath through `typesVersions`", async () => {
    const { main, types, typesVersions, exports } = await manifest();
    expect(main).toBe(exports["."]!.require.default);
    expect(types).toBe(exports["."]!.require.types);
    const subpaths = Object.keys(exports).filter((subpath) => subpath !== ".");
    const mapped = Object.fromEntries(
      subpaths.map((subpath) => [subpath.slice(2), [exports[subpath]!.require.types]]),
    );
    expect(typesVersions?.["*"] ?? {}).toEqual(mapped);
  });
});

it("@mailpulse/storage-postgres brings @types/pg, which its declarations import", async () => {
  const manifest = JSON.parse(
    await readFile(join(repositoryRoot, "packages/storage-postgres/package.json"), "utf8"),
  ) as Manifest;
  expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(["pg", "@types/pg"]));
});

it("@mailpulse/core brings @types/nodemailer, which its declarations import (smtpProvider's options)", async () => {
  const manifest = JSON.parse(
    await readFile(join(repositoryRoot, "packages/core/package.json"), "utf8"),
  ) as Manifest;
  expect(Object.keys(manifest.dependencies)).toEqual(
    expect.arrayContaining(["nodemailer", "@types/nodemailer"]),
  );
});
