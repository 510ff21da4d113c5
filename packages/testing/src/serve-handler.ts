import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { MailPulseHttp } from "@mailpulse/core/node";
import { createNodeListener } from "@mailpulse/core/node";

/**
 * How a test server exposes MailPulse: the bare Node listener (`fetch`), the Express adapter or
 * the Fastify adapter. The API contract suite runs once per kind.
 */
export type ServerKind = "fetch" | "express" | "fastify";

/** Every {@link ServerKind}, in a stable order, for `describe.each`. */
export const serverKinds: ServerKind[] = ["fetch", "express", "fastify"];

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  /**
   * Where the host mounts MailPulse (Express `app.use(mountPath, ...)`, Fastify `prefix`).
   * Default "/" (the API at `/api`). Not supported by the `fetch` kind, which always serves at the root.
   */
  mountPath?: string;
  /**
   * Put the host's usual JSON body parser in front (Express `express.json()`, with the core's body
   * limit so both agree on 413). Fastify hosts always have their JSON parser; the plugin replaces it
   * in its own scope. Default: false.
   */
  hostJsonParser?: boolean;
}

/** A listening test server. */
export interface TestServer {
  /** `http://127.0.0.1:PORT` plus the mount path: `${baseUrl}/api/...` reaches the core. */
  baseUrl: string;
  /** Stops listening and drops open keep-alive connections. */
  close(): Promise<void>;
}

/**
 * Starts a real HTTP server on 127.0.0.1 (a free port) that serves `mailpulse` the way a host of
 * the given kind would. Express and Fastify, and their adapters (`@mailpulse/adapter-express`,
 * `@mailpulse/adapter-fastify`), are imported only when asked for: they are optional peers of
 * this package, to install for those kinds only.
 */
export async function startTestServer(
  kind: ServerKind,
  mailpulse: MailPulseHttp,
  options: TestServerOptions = {},
): Promise<TestServer> {
  const mountPath = normalizeMountPath(options.mountPath);
  switch (kind) {
    case "fetch":
      if (mountPath !== "")
        throw new Error("The fetch server kind serves at the root; mountPath is not supported");
      return startNodeServer(mailpulse);
    case "express":
      return startExpressServer(mailpulse, mountPath, options.hostJsonParser === true);
    case "fastify":
      return startFastifyServer(mailpulse, mountPath);
  }
}

function normalizeMountPath(mountPath: string | undefined): string {
  if (mountPath === undefined || mountPath === "/") return "";
  const withSlash = mountPath.startsWith("/") ? mountPath : `/${mountPath}`;
  return withSlash.endsWith("/") ? withSlash.slice(0, -1) : withSlash;
}

async function startNodeServer(mailpulse: MailPulseHttp): Promise<TestServer> {
  const server = createServer(createNodeListener(mailpulse));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // fetch keeps connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
      }),
  };
}

async function startExpressServer(
  mailpulse: MailPulseHttp,
  mountPath: string,
  hostJsonParser: boolean,
): Promise<TestServer> {
  const { default: express } = await import("express");
  const { mailpulseExpress } = await import("@mailpulse/adapter-express");
  const app = express();
  if (hostJsonParser) app.use(express.json({ limit: mailpulse.maxBodyBytes }));
  app.use(mountPath === "" ? "/" : mountPath, mailpulseExpress(mailpulse));
  // A host's typical error middleware: body-parser's client errors (400 malformed, 413 too large)
  // keep their status, anything else is a 500. Always the API's {"error"} shape.
  app.use(
    (error: unknown, _req: unknown, res: import("express").Response, next: (error: unknown) => void) => {
      if (res.headersSent) {
        next(error);
        return;
      }
      const status = clientErrorStatus(error);
      const message =
        status !== undefined && error instanceof Error ? error.message : "Internal server error";
      res.status(status ?? 500).json({ error: message });
    },
  );
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${mountPath}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function clientErrorStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const candidate = typeof status === "number" ? status : statusCode;
  return typeof candidate === "number" && candidate >= 400 && candidate < 500 ? candidate : undefined;
}

async function startFastifyServer(mailpulse: MailPulseHttp, mountPath: string): Promise<TestServer> {
  const { default: Fastify } = await import("fastify");
  const { mailpulseFastify, mailpulseFastifyServerOptions } = await import("@mailpulse/adapter-fastify");
  const app = Fastify(mailpulseFastifyServerOptions(mailpulse, { prefix: mountPath }));
  await app.register(mailpulseFastify, { mailpulse, prefix: mountPath });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${mountPath}`,
    close: async () => {
      await app.close();
    },
  };
}
