/** One measured run of a server: start it fresh, warm it up, load it, stop it. */
import type { BenchSettings } from "../lib/settings.js";
import type { LoadGenerator, LoadResult, LoadSpec } from "../load/load-spec.js";
import type { ServerConfig } from "./config.js";
import { startServer } from "./start-server.js";

/** What the load generator saw during one run. */
export interface MeasuredRun {
  /** The unmeasured warm-up load, when there was one (its answers count for the hit checks). */
  warmup: LoadResult | undefined;
  measured: LoadResult;
  /** Requests that may have been in flight when a load run stopped: connections times load runs. */
  maxInFlight: number;
}

/**
 * Starts `config` in a new server process (cold caches, as after a deploy), runs
 * `settings.warmupSeconds` of unmeasured load then `spec` measured, and stops the server, which
 * for MailPulse means its queue is drained and its storage closed when this resolves.
 */
export async function measuredRun(
  config: ServerConfig,
  spec: Omit<LoadSpec, "origin">,
  settings: BenchSettings,
  load: LoadGenerator,
): Promise<MeasuredRun> {
  const server = await startServer(config);
  let warmup: LoadResult | undefined;
  let measured: LoadResult;
  try {
    const origin = server.origin;
    if (settings.warmupSeconds > 0) {
      warmup = await load.run({ ...spec, origin, durationSeconds: settings.warmupSeconds });
    }
    measured = await load.run({ ...spec, origin });
  } catch (error) {
    await server.kill();
    throw error;
  }
  await server.stop();
  return { warmup, measured, maxInFlight: spec.connections * (warmup ? 2 : 1) };
}

/** Answers (2xx/3xx) of the whole run, warm-up included. */
export function answeredIn(run: MeasuredRun): number {
  return run.measured.answered + (run.warmup?.answered ?? 0);
}
