// Removes optional dependencies that package-lock.json lists but holds no entry for.
//
// The registry this project is built against does not serve every platform binary (Biome's and
// Rollup's builds for other operating systems), so `npm install` leaves them out of the lock while
// their parents still list them, and `npm ci` then refuses the lock as out of sync. Run this after
// any `npm install` that rewrites package-lock.json: `node scripts/prune-lockfile.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
let pruned = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ""}node_modules/${name}`;
    if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) {
      delete entry.optionalDependencies[name];
      pruned += 1;
    }
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`prune-lockfile: removed ${pruned} unresolvable optional dependencies`);
