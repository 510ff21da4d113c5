import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/**
 * The version of an installed package, as its own package.json says: the figures of a corpus
 * belong to one release of it, and the lists change with every release.
 */
export function installedVersion(packageName: string): string {
  // Neither corpus package exports its package.json, so start at the entry point and walk up.
  let folder = dirname(require.resolve(packageName));
  for (;;) {
    const manifest = join(folder, "package.json");
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as {
        name?: string;
        version?: string;
      };
      if (name === packageName && version) return version;
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no package.json of ${packageName} above its entry point`);
    folder = parent;
  }
}
