import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Tests run against the TypeScript sources of the workspace packages (the `source` export
// condition), never a stale build.
const conditions = ["source", ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["source"] } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    globalSetup: ["./vitest.global-setup.ts"],
  },
});
