/** The autocannon load generator (npm), used where wrk is not installed; pinned to the load core. */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { nodeArguments } from "../lib/node-child.js";
import { loadCore, pinned } from "../lib/pin.js";
import type { TempFolder } from "../lib/temp-folder.js";
import type { LoadGenerator, LoadResult, LoadSpec } from "./load-spec.js";

const run = promisify(execFile);
const entry = new URL("./autocannon-child.ts", import.meta.url);

/**
 * A {@link LoadGenerator} running autocannon in a child process with its spec file in `folder`.
 * autocannon is JavaScript on one core: it saturates earlier than wrk, so its ratios are lower
 * bounds when the baseline is fast. The banner names the generator that ran.
 */
export function autocannonLoadGenerator(folder: TempFolder): LoadGenerator {
  let runs = 0;
  return {
    name: "autocannon",
    async run(spec: LoadSpec): Promise<LoadResult> {
      runs += 1;
      const specFile = folder.file(`autocannon-${runs}.json`);
      writeFileSync(specFile, JSON.stringify(spec));
      const [command, args] = pinned(loadCore, process.execPath, nodeArguments(entry, specFile));
      const { stdout } = await run(command, args, { maxBuffer: 1024 * 1024 });
      const line = stdout.split("\n").find((candidate) => candidate.startsWith('{"responses"'));
      if (!line) throw new Error(`autocannon printed no summary:\n${stdout}`);
      return JSON.parse(line) as LoadResult;
    },
  };
}
