/** The banner every benchmark prints first: the machine, its current load, and how load is placed. */
import { execFileSync } from "node:child_process";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { describePinning } from "./pin.js";

/** Above this 1-minute load average, something else is using the CPU and figures will be low. */
const busyLoadAverage = 0.5;

function uptimeLine(): string {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    const [one, five, fifteen] = loadavg();
    return `load average: ${one?.toFixed(2)}, ${five?.toFixed(2)}, ${fifteen?.toFixed(2)} (os.loadavg)`;
  }
}

/** ` (load 0.42)`: the 1-minute load average, for progress lines, so a disturbed comparison shows. */
export function currentLoad(): string {
  return ` (load ${(loadavg()[0] ?? 0).toFixed(2)})`;
}

/** Prints the machine, `uptime` and the pinning; warns when the machine is already busy. */
export function printMachine(log: (line: string) => void = console.log): void {
  const model = cpus()[0]?.model ?? "unknown CPU";
  const memoryGb = (totalmem() / 1024 ** 3).toFixed(0);
  log(`machine: ${availableParallelism()} cores (${model}), ${memoryGb} GB RAM, Node ${process.version}`);
  log(`uptime:  ${uptimeLine()}`);
  const oneMinute = loadavg()[0] ?? 0;
  if (oneMinute > busyLoadAverage) {
    log(
      `WARNING: 1-minute load average ${oneMinute.toFixed(2)} > ${busyLoadAverage}: other work is running, ` +
        "figures will be low and noisy. Rerun on an idle machine.",
    );
  }
  log(`pinning: ${describePinning()}`);
}
