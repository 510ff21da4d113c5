import { packageBuildConfig } from "../../scripts/tsup-package.js";

export default packageBuildConfig(["src/index.ts", "src/testing.ts"], {
  // The CommonJS build has no `import.meta`: the shim gives `import.meta.url` a value there, which
  // the background checkpoint needs to find better-sqlite3 for its worker.
  shims: true,
});
