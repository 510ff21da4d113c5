import { packageBuildConfig } from "../../scripts/tsup-package.js";

export default packageBuildConfig(["src/index.ts", "src/contracts.ts", "src/peers.ts"]);
