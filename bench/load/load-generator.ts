/** Picks the load generator: wrk when installed (or asked for), else autocannon. */
import type { BenchSettings } from "../lib/settings.js";
import type { TempFolder } from "../lib/temp-folder.js";
import { autocannonLoadGenerator } from "./autocannon.js";
import type { LoadGenerator } from "./load-spec.js";
import { wrkInstalled, wrkLoadGenerator } from "./wrk.js";

/** wrk when installed, autocannon otherwise; `BENCH_LOAD` forces one. Files go in `folder`. */
export function chooseLoadGenerator(settings: BenchSettings, folder: TempFolder): LoadGenerator {
  const wanted = settings.loadGenerator ?? (wrkInstalled() ? "wrk" : "autocannon");
  if (wanted === "wrk" && !wrkInstalled()) throw new Error("BENCH_LOAD=wrk but wrk is not installed");
  return wanted === "wrk" ? wrkLoadGenerator(folder) : autocannonLoadGenerator(folder);
}
