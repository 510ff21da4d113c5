/**
 * CPU pinning. On a small machine a server and its load generator sharing cores measure each
 * other's scheduling as much as the server, so the server runs on core 0 and the load on core 1
 * (`taskset -c`). Without taskset (macOS, minimal containers) or with one core, commands run
 * unpinned and the banner says so.
 */
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

/** The core every server under test runs on. */
export const serverCore = 0;
/** The core the load generator (and, in the send case, the SMTP sink) runs on. */
export const loadCore = 1;

let canPin: boolean | undefined;

/** Whether `taskset` works here and there are at least two cores to pin to. Probed once. */
export function pinningAvailable(): boolean {
  if (canPin === undefined) {
    const probe = spawnSync("taskset", ["-c", String(loadCore), "true"], { stdio: "ignore" });
    canPin = availableParallelism() >= 2 && probe.error === undefined && probe.status === 0;
  }
  return canPin;
}

/** `command args` wrapped in `taskset -c <core>` when pinning is available, unchanged otherwise. */
export function pinned(core: number, command: string, args: readonly string[]): [string, string[]] {
  return pinningAvailable() ? ["taskset", ["-c", String(core), command, ...args]] : [command, [...args]];
}

/** One line for the banner: how processes are placed. */
export function describePinning(): string {
  return pinningAvailable()
    ? `servers pinned to core ${serverCore}, load generator to core ${loadCore} (taskset)`
    : "NOT pinned (taskset missing or fewer than 2 cores): servers and load generator share the cores";
}
