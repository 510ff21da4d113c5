import type { AddressInfo } from "node:net";
import { mailpulseFastify } from "@mailpulse/adapter-fastify";
import type { FastifyInstance } from "fastify";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import type { Echo } from "../../core/test/node/echo-handler.js";
import { createEchoHandler } from "../../core/test/node/echo-handler.js";

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function listen(instance: FastifyInstance): Promise<string> {
  app = instance;
  await instance.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(instance.server.address() as AddressInfo).port}`;
}

function post(url: string, body: string, contentType = "application/json"): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": contentType }, body });
}

describe("mailpulseFastify", () => {
  it("serves /mail/api/... under prefix /mail, and the core sees /api/...", async () => {
    const instance = Fastify();
    await instance.register(mailpulseFastify, { mailpulse: createEchoHandler(), prefix: "/mail" });
    const base = await listen(instance);
    const echo = (await (await fetch(`${base}/mail/api/echo?x=1`)).json()) as Echo;
    expect(echo.pathname).toBe("/api/echo");
    expect(echo.search).toBe("?x=1");
    expect((await fetch(`${base}/mail/api`)).status).toBe(404);
    expect(await (await fetch(`${base}/mail/api`)).json()).toEqual({ error: "Unknown API route" });
    // Outside the prefix Fastify's own 404 answers.
    const outside = await fetch(`${base}/api/echo`);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { message: string }).message).toMatch(
      /Route GET:\/api\/echo not found/,
    );
  });

  it("hands the core the raw body, whatever its content type, and even when it is not valid JSON", async () => {
    const instance = Fastify();
    await instance.register(mailpulseFastify, { mailpulse: createEchoHandler() });
    const base = await listen(instance);
    for (const [body, type] of [
      ['{ "spacing" :  "kept" }', "application/json"],
      ["{not json", "application/json"],
      ["a,b\n1,2", "text/csv"],
      ["name=ada", "application/x-www-form-urlencoded"],
    ] as const) {
      const response = await post(`${base}/api/echo`, body, type);
      expect(response.status).toBe(200);
      const echo = (await response.json()) as Echo;
      expect(echo.body).toBe(body);
      expect(echo.headers["content-type"]).toBe(type);
    }
  });

  it("leaves host routes and their JSON parsing alone", async () => {
    const instance = Fastify();
    await instance.register(mailpulseFastify, { mailpulse: createEchoHandler() });
    instance.post("/orders", async (request) => ({ host: true, received: request.body }));
    const base = await listen(instance);
    expect(await (await post(`${base}/orders`, '{"id":7}')).json()).toEqual({
      host: true,
      received: { id: 7 },
    });
    // Fastify's own parser still rejects bad JSON on host routes.
    expect((await post(`${base}/orders`, "{bad")).status).toBe(400);
    expect((await fetch(`${base}/apiary`)).status).toBe(404);
  });

  it("leaves the host's own /api routes, registered after the plugin, to the host", async () => {
    const instance = Fastify();
    await instance.register(mailpulseFastify, { mailpulse: createEchoHandler() });
    instance.get("/api/users", async () => ({ users: ["ada"] }));
    instance.post("/api/users", async (request) => ({ created: request.body }));
    const base = await listen(instance);
    expect(await (await fetch(`${base}/api/users`)).json()).toEqual({ users: ["ada"] });
    // The host's JSON parser, not the plugin's raw one, read this body.
    expect(await (await post(`${base}/api/users`, '{"name":"bob"}')).json()).toEqual({
      created: { name: "bob" },
    });
    expect(((await (await fetch(`${base}/api/echo`)).json()) as Echo).pathname).toBe("/api/echo");
  });

  it("lets the core, not Fastify's bodyLimit, decide 413, in the API's JSON shape", async () => {
    const instance = Fastify({ bodyLimit: 100 });
    await instance.register(mailpulseFastify, { mailpulse: createEchoHandler(1000) });
    const base = await listen(instance);
    const underCoreLimit = await post(`${base}/api/echo`, JSON.stringify({ pad: "x".repeat(500) }));
    expect(underCoreLimit.status).toBe(200);
    const overCoreLimit = await post(`${base}/api/echo`, JSON.stringify({ pad: "x".repeat(2000) }));
    expect(overCoreLimit.status).toBe(413);
    expect(await overCoreLimit.json()).toEqual({ error: "The request body is larger than 1000 bytes" });
  });

  it("answers HEAD through the core, headers only", async () => {
    const instance = Fastify();
    await instance.register(mailpulseFastify, { mailpulse: createEchoHandler() });
    const base = await listen(instance);
    const response = await fetch(`${base}/api/echo`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.text()).toBe("");
  });

  it("keeps headers that host hooks set, since the response goes out through reply.send", async () => {
    const instance = Fastify();
    instance.addHook("onRequest", async (_request, reply) => {
      reply.header("access-control-allow-origin", "*");
    });
    await instance.register(mailpulseFastify, { mailpulse: createEchoHandler() });
    const base = await listen(instance);
    const response = await fetch(`${base}/api/cookies`);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.getSetCookie()).toHaveLength(2);
  });

  it("reads the body from the stream a host preParsing hook hands on", async () => {
    const instance = Fastify();
    const { Transform } = await import("node:stream");
    instance.addHook("preParsing", async (_request, _reply, payload) =>
      payload.pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            callback(null, Buffer.from(chunk.toString("utf8").toUpperCase()));
          },
        }),
      ),
    );
    await instance.register(mailpulseFastify, { mailpulse: createEchoHandler() });
    const base = await listen(instance);
    const response = await post(`${base}/api/echo`, '{"a":"b"}');
    expect(((await response.json()) as Echo).body).toBe('{"A":"B"}');
  });

  it("passes an error thrown by the handler to Fastify's error handler", async () => {
    const instance = Fastify();
    instance.setErrorHandler(async (error: Error, _request, reply) =>
      reply.status(500).send({ error: `host saw: ${error.message}` }),
    );
    await instance.register(mailpulseFastify, { mailpulse: createEchoHandler() });
    const base = await listen(instance);
    const response = await fetch(`${base}/api/throw`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "host saw: handler exploded" });
  });

  it("refuses to register without a mailpulse instance", async () => {
    const instance = Fastify();
    app = instance;
    await expect(instance.register(mailpulseFastify, {} as never).ready()).rejects.toThrow(/mailpulse/);
  });
});
