import { packageBuildConfig } from "../../scripts/tsup-package.js";

export default packageBuildConfig(["src/index.ts"]);
