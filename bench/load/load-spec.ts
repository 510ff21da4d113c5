/** What a load generator is asked to do and what it reports, whichever one runs. */

/** One load run against a server. */
export interface LoadSpec {
  /** Origin of the server, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /**
   * Request paths, cycled through in order across all connections, so that consecutive requests
   * hit distinct tracking ids (as a newsletter's recipients do) instead of one hot cache entry.
   */
  paths: readonly string[];
  /**
   * `User-Agent` headers, cycled through with the paths (request i carries `userAgents[i % n]`);
   * none when absent, or from `headers`.
   */
  userAgents?: readonly string[];
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
}

/** What a load run measured. */
export interface LoadResult {
  /** Responses received in full before the run ended. */
  responses: number;
  /** Responses with a 2xx or 3xx status. */
  answered: number;
  /** Responses with any other status. */
  failedStatus: number;
  /** Connect, read, write errors and timeouts. */
  socketErrors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** A load generator: runs a spec on the load core and reports. */
export interface LoadGenerator {
  /** `wrk` or `autocannon`, printed in every banner. */
  name: string;
  run(spec: LoadSpec): Promise<LoadResult>;
}
