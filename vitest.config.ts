import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of the workspace packages, never a stale build.
    conditions: ["source"],
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
