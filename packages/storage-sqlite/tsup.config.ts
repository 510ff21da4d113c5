import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/testing.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  // The CommonJS build has no `import.meta`: the shim gives `import.meta.url` a value there, which
  // the background checkpoint needs to find better-sqlite3 for its worker.
  shims: true,
});
