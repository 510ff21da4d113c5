import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const packageFolder = join(import.meta.dirname, "..");
const host = join(import.meta.dirname, "fixtures", "open-from-commonjs.cjs");

/**
 * Builds the package's CommonJS output with its own tsup config (declarations and source maps
 * left out, for speed) into a folder inside the package, so the build's `require`s resolve the
 * way an installed package's do.
 */
function buildCommonJs(): string {
  const outDir = mkdtempSync(join(packageFolder, ".cjs-build-"));
  const build = `import("tsup").then(({ build }) =>
    build({ format: ["cjs"], dts: false, sourcemap: false, outDir: ${JSON.stringify(outDir)}, silent: true }))`;
  execFileSync(process.execPath, ["--input-type=module", "-e", build], { cwd: packageFolder });
  return outDir;
}

describe("the CommonJS build", () => {
  // `import.meta` is empty in CommonJS output unless tsup shims it: the background checkpoint
  // resolved better-sqlite3 from `import.meta.url` and threw on open in every CommonJS host.
  it("opens a SQLite file, with its background checkpoint, from a CommonJS host", () => {
    const outDir = buildCommonJs();
    const dataFolder = mkdtempSync(join(tmpdir(), "mailpulse-sqlite-cjs-"));
    try {
      // Core comes from source (it is not built here): tsx compiles it, the storage is the build.
      const output = execFileSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "--conditions=source",
          host,
          join(outDir, "index.cjs"),
          join(dataFolder, "cjs.db"),
        ],
        { cwd: packageFolder, encoding: "utf8" },
      );
      expect(output.trim()).toBe("opened, migrated and closed");
    } finally {
      rmSync(outDir, { recursive: true, force: true });
      rmSync(dataFolder, { recursive: true, force: true });
    }
  }, 60_000);
});
