import { defineConfig, type Options } from "tsup";

/**
 * The build every MailPulse package shares: ESM and CommonJS with their declaration files and
 * source maps, for Node 20, from a clean `dist/`. A package's `tsup.config.ts` names its entry
 * points (its `exports` map's `source` files) and adds only what it alone needs, e.g.
 * `{ shims: true }`. Only the build reads this file: it is bundled into the config by tsup, so
 * neither the packed package nor its users need it.
 */
export function packageBuildConfig(entry: string[], extra: Options = {}) {
  return defineConfig({
    entry,
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    sourcemap: true,
    target: "node20",
    ...extra,
  });
}
