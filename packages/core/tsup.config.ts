import { packageBuildConfig } from "../../scripts/tsup-package.js";

export default packageBuildConfig(["src/index.ts", "src/storage.ts", "src/kysely.ts", "src/node.ts"]);
