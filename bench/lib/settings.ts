/**
 * The knobs of the HTTP benchmarks, read from the environment so a rerun (after a change to the
 * tracking path, or on another machine) can be shortened or lengthened without editing code.
 */

/** What every HTTP benchmark case reads. */
export interface BenchSettings {
  /**
   * Seconds of measured load per run (`BENCH_DURATION`, default 10, as issue 7 measured: a 5 s
   * window can miss the SQLite log's restart, every 3 s or so under load, and read a low p99).
   */
  durationSeconds: number;
  /**
   * Seconds of unmeasured load before each measured run, on the same server process (`BENCH_WARMUP`,
   * default 3). A fresh MailPulse server takes about 3 s of load to reach its steady rate (0.8k,
   * 1.6k, 3.2k, then 5-7k req/s in its first seconds, counted in the server; the same on a single
   * id, so it is the JIT, not the caches); a 1 s warm-up left that climb inside the measured seconds.
   */
  warmupSeconds: number;
  /** Runs of each contender, interleaved with the others (`BENCH_REPS`, default 3). */
  repetitions: number;
  /** Sent emails seeded for the tracking cases; their ids are what the load hits (`BENCH_EMAILS`, default 5,000). */
  emails: number;
  /** Connection counts to run every tracking case at, overriding each case's own (`BENCH_CONNECTIONS`, e.g. `10,50`). */
  connections: number[] | undefined;
  /**
   * Runs only the tracking cases whose name contains every word of this, case-insensitively
   * (`BENCH_ONLY`, e.g. `express` or `pixel fastify sqlite`); default: all.
   */
  only: string | undefined;
  /**
   * Whether tracking hits carry a `User-Agent` from a mix of mail clients and browsers
   * (bench/tracking/user-agents.ts); `BENCH_USER_AGENTS=none` sends none, as the passes before
   * 2026-11-26's ninth did, to compare with their figures. Default: the mix.
   */
  userAgents: boolean;
  /** Forces a load generator (`BENCH_LOAD=wrk|autocannon`); default: wrk when installed. */
  loadGenerator: "wrk" | "autocannon" | undefined;
  /** PostgreSQL for the PostgreSQL cases (`DATABASE_URL`); they are skipped, saying so, without it. */
  databaseUrl: string | undefined;
}

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name}=${raw} is invalid: expected a positive number`);
  }
  return value;
}

/** Reads {@link BenchSettings} from `process.env`; throws, naming the variable, on a bad value. */
export function readBenchSettings(): BenchSettings {
  const load = process.env.BENCH_LOAD?.trim();
  if (load && load !== "wrk" && load !== "autocannon") {
    throw new Error(`BENCH_LOAD=${load} is invalid: expected wrk or autocannon`);
  }
  const connections = process.env.BENCH_CONNECTIONS?.trim();
  const userAgents = process.env.BENCH_USER_AGENTS?.trim();
  if (userAgents && userAgents !== "none" && userAgents !== "mix") {
    throw new Error(`BENCH_USER_AGENTS=${userAgents} is invalid: expected mix or none`);
  }
  return {
    durationSeconds: positiveNumber("BENCH_DURATION", 10),
    warmupSeconds: positiveNumber("BENCH_WARMUP", 3),
    repetitions: Math.round(positiveNumber("BENCH_REPS", 3)),
    emails: Math.round(positiveNumber("BENCH_EMAILS", 5_000)),
    connections: connections
      ? connections.split(",").map((part) => Math.round(Number(part.trim())))
      : undefined,
    only: process.env.BENCH_ONLY?.trim().toLowerCase() || undefined,
    userAgents: userAgents !== "none",
    loadGenerator: load === "wrk" || load === "autocannon" ? load : undefined,
    databaseUrl: process.env.DATABASE_URL?.trim() || undefined,
  };
}
