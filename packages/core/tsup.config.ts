import { defineConfig } from "tsup";

export default defineConfig({
  entry: [
    "src/index.ts",
    "src/storage.ts",
    "src/kysely.ts",
    "src/testing.ts",
    "src/testing-contracts.ts",
    "src/testing-peers.ts",
    "src/node.ts",
  ],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  // The contracts entry loads the adapters on demand; they depend on core, so core must not bundle them.
  external: ["@mailpulse/adapter-express", "@mailpulse/adapter-fastify"],
});
