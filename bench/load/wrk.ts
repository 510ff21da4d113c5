/** The wrk load generator (Debian's `wrk` package), pinned to the load core. */
import { execFile, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { loadCore, pinned } from "../lib/pin.js";
import type { TempFolder } from "../lib/temp-folder.js";
import type { LoadGenerator, LoadResult, LoadSpec } from "./load-spec.js";
import { wrkScript } from "./wrk-script.js";

const run = promisify(execFile);

/** Whether a `wrk` executable is on the PATH. */
export function wrkInstalled(): boolean {
  // `wrk --version` prints its banner and exits 1; only a spawn error means it is missing.
  return spawnSync("wrk", ["--version"], { stdio: "ignore" }).error === undefined;
}

interface WrkSummary {
  responses: number;
  durationUs: number;
  status: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
  p50Us: number;
  p99Us: number;
}

/** A {@link LoadGenerator} running `wrk -t1` (one thread: the load core is one core) with its files in `folder`. */
export function wrkLoadGenerator(folder: TempFolder): LoadGenerator {
  const script = folder.file("paths.lua");
  writeFileSync(script, wrkScript());
  let runs = 0;
  return {
    name: "wrk",
    async run(spec: LoadSpec): Promise<LoadResult> {
      runs += 1;
      const pathsFile = folder.file(`wrk-paths-${runs}.txt`);
      writeFileSync(pathsFile, `${spec.paths.join("\n")}\n`);
      const agentsFile = folder.file(`wrk-agents-${runs}.txt`);
      if (spec.userAgents?.length) writeFileSync(agentsFile, `${spec.userAgents.join("\n")}\n`);
      const options = ["-t1", `-c${spec.connections}`, `-d${spec.durationSeconds}s`, "--timeout", "10s"];
      for (const [name, value] of Object.entries(spec.headers ?? {})) options.push("-H", `${name}: ${value}`);
      const scriptFile = spec.method === "POST" ? writePostScript(folder, runs, spec) : script;
      const [command, args] = pinned(loadCore, "wrk", [
        ...options,
        "-s",
        scriptFile,
        spec.origin,
        "--",
        pathsFile,
        ...(spec.userAgents?.length ? [agentsFile] : []),
      ]);
      const { stdout } = await run(command, args, { maxBuffer: 1024 * 1024 });
      const line = stdout.split("\n").find((candidate) => candidate.startsWith('{"responses"'));
      if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
      return toLoadResult(JSON.parse(line) as WrkSummary);
    },
  };
}

/** The paths script with the method and body set: wrk.format picks up wrk.method and wrk.body. */
function writePostScript(folder: TempFolder, run: number, spec: LoadSpec): string {
  const file = folder.file(`post-${run}.lua`);
  const body = spec.body ?? "";
  // A Lua long bracket with a level no JSON body contains keeps the body verbatim.
  writeFileSync(file, `wrk.method = "POST"\nwrk.body = [==========[${body}]==========]\n${wrkScript()}`);
  return file;
}

function toLoadResult(summary: WrkSummary): LoadResult {
  const seconds = summary.durationUs / 1e6;
  return {
    responses: summary.responses,
    answered: summary.responses - summary.status,
    failedStatus: summary.status,
    socketErrors: summary.connect + summary.read + summary.write + summary.timeout,
    requestsPerSecond: summary.responses / seconds,
    p50Ms: summary.p50Us / 1000,
    p99Ms: summary.p99Us / 1000,
  };
}
