/**
 * The baselines: Fastify and Express apps whose routes answer what MailPulse's routes answer and
 * do nothing else. The tracking routes send the same GIF or 302 with the same headers; the send
 * route parses the same JSON body with the framework's own parser and answers a small JSON.
 */
import type { Server } from "node:http";
import express from "express";
import Fastify from "fastify";
import { bareRedirectUrl, pixelHeaders, redirectHeaders, transparentGif } from "./tracking-answers.js";

/** A listening app and how to close it. */
export interface ListeningApp {
  port: number;
  close(): Promise<void>;
}

/** The largest body MailPulse accepts by default (1 MiB): the bare parsers get the same limit. */
const bodyLimit = 1024 * 1024;

/** Starts the bare Fastify app on 127.0.0.1 at an ephemeral port. */
export async function startBareFastify(): Promise<ListeningApp> {
  const app = Fastify({ logger: false, bodyLimit });
  app.get("/api/t/o/:id", (_request, reply) => reply.headers(pixelHeaders).send(transparentGif));
  app.get("/api/t/c/:id", (_request, reply) =>
    reply
      .code(302)
      .headers({ ...redirectHeaders, location: bareRedirectUrl })
      .send(),
  );
  app.post("/api/send", async (request) => ({ id: "bare", received: typeof request.body }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { port: portOf(app.server), close: () => app.close() };
}

/** Starts the bare Express app on 127.0.0.1 at an ephemeral port. */
export async function startBareExpress(): Promise<ListeningApp> {
  const app = express();
  app.get("/api/t/o/:id", (_request, response) => {
    response.status(200).set(pixelHeaders).end(transparentGif);
  });
  app.get("/api/t/c/:id", (_request, response) => {
    response
      .status(302)
      .set({ ...redirectHeaders, location: bareRedirectUrl })
      .end();
  });
  app.post("/api/send", express.json({ limit: bodyLimit }), (request, response) => {
    response.json({ id: "bare", received: typeof request.body });
  });
  return listenExpress(app);
}

/** Listens with an Express app on 127.0.0.1 at an ephemeral port. */
export function listenExpress(app: express.Express, onClose?: () => Promise<void>): Promise<ListeningApp> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, "127.0.0.1", (error?: Error) => {
      if (error) return reject(error);
      resolve({
        port: portOf(server),
        close: async () => {
          // Node 20's close() also ends idle keep-alive connections; busy ones finish their request.
          await new Promise<void>((done) => server.close(() => done()));
          await onClose?.();
        },
      });
    });
  });
}

/** The port a listening server is bound to. */
export function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("server is not listening on TCP");
  return address.port;
}
