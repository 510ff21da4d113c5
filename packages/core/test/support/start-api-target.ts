import {
  createMailPulse,
  defaultMaxBodyBytes,
  defaultMaxSendBodyBytes,
  type MailPulse,
  type MailPulseHandler,
} from "@mailpulse/core";
import {
  type ApiTestOverrides,
  type ApiTestTarget,
  type ServerKind,
  startTestServer,
} from "@mailpulse/testing/contracts";
import { recordAnswer } from "./recorded-answers.js";
import type { NamedStorageFactory } from "./storages.js";

/**
 * Starts MailPulse on a fresh storage behind a real server of `kind`. The server listens first
 * so the instance's `baseUrl` (used in tracking URLs) is the server's real address. Every answer
 * of the handler is recorded (`recordedAnswers`) for checks against the OpenAPI document.
 */
export function apiTargetStarter(kind: ServerKind, storageFactory: NamedStorageFactory) {
  return async (overrides: ApiTestOverrides): Promise<ApiTestTarget> => {
    const storage = await storageFactory.create();
    let instance: MailPulse | undefined;
    const server = await startTestServer(kind, {
      basePath: "/api",
      // What the instance will say (`mailpulse.maxBodyBytes`): the largest limit of its routes.
      maxBodyBytes: Math.max(
        overrides.maxBodyBytes ?? defaultMaxBodyBytes,
        overrides.maxSendBodyBytes ?? defaultMaxSendBodyBytes,
      ),
      handler: (async (request, info) =>
        recordAnswer(request, await instance!.handler(request, info))) satisfies MailPulseHandler,
    });
    // The server is on loopback and so is every reader of its mail (the loopback SMTP peer).
    instance = createMailPulse({
      storage,
      baseUrl: server.baseUrl,
      allowPrivateBaseUrl: true,
      logger: quietLogger,
      ...overrides,
    });
    const mailpulse = instance;
    return {
      baseUrl: server.baseUrl,
      mailpulse,
      storage,
      async close() {
        await server.close();
        await mailpulse.stop();
        await storage.close();
      },
    };
  };
}

/** Keeps expected 5xx logs (provider failures in tests) out of the test output. */
const quietLogger = { info: () => {}, error: () => {} };
