/**
 * Child-process entry of the autocannon fallback: `node autocannon-child.ts <spec.json>` runs one
 * load and prints its {@link LoadResult} as one JSON line. A process of its own so that, like wrk,
 * it can be pinned to the load core and never shares the event loop of the bench runner.
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import type { LoadResult, LoadSpec } from "./load-spec.js";

const spec = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as LoadSpec;
let next = 0;

const result = await autocannon({
  url: spec.origin,
  connections: spec.connections,
  duration: spec.durationSeconds,
  timeout: 10,
  method: spec.method ?? "GET",
  headers: spec.headers,
  body: spec.body,
  // One request template whose path moves on at every request, shared by all connections, so
  // consecutive requests hit distinct ids as they do under wrk's script.
  requests: [
    {
      setupRequest: (request) => {
        const path = spec.paths[next % spec.paths.length];
        const agents = spec.userAgents ?? [];
        // The agent follows the path's position, as in wrk's script.
        const agent = agents.length > 0 ? agents[(next % spec.paths.length) % agents.length] : undefined;
        next += 1;
        if (agent === undefined) return { ...request, path };
        return { ...request, path, headers: { ...request.headers, "user-agent": agent } };
      },
    },
  ],
});

const responses = result["1xx"] + result["2xx"] + result["3xx"] + result["4xx"] + result["5xx"];
const answered = result["2xx"] + result["3xx"];
const summary: LoadResult = {
  responses,
  answered,
  failedStatus: responses - answered,
  socketErrors: result.errors,
  requestsPerSecond: responses / result.duration,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
};
console.log(JSON.stringify(summary));
