import type { MailPulse, MailPulseOptions } from "@mailpulse/core";
import type { Storage } from "@mailpulse/core/storage";

/** What a contract test may override when it starts MailPulse (clock, limits, provider...). */
export type ApiTestOverrides = Partial<Omit<MailPulseOptions, "storage">>;

/** A running MailPulse HTTP server under test. */
export interface ApiTestTarget {
  /** The URL `/api` paths are appended to (includes any mount prefix), no trailing slash. */
  baseUrl: string;
  /** The instance behind the server, to create organizations and keys in-process. */
  mailpulse: MailPulse;
  /** Its storage, for arranging what the API cannot create yet and checking what was stored. */
  storage: Storage;
  /** Stops the server, the instance and the storage. */
  close(): Promise<void>;
}

/** Starts a fresh target (empty storage) with the given overrides. */
export type StartApiTarget = (overrides: ApiTestOverrides) => Promise<ApiTestTarget>;

/** A response read by {@link createApiClient}. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: T;
}

/** Request options of the API client. */
export interface ApiRequest {
  key?: string;
  /** A value to send as JSON. */
  json?: unknown;
  /** A raw body (sent as is, with `headers` deciding its content type). */
  raw?: string;
  headers?: Record<string, string>;
}

/** A small client over real `fetch`, for contract tests. */
export function createApiClient(baseUrl: string) {
  // biome-ignore lint/suspicious/noExplicitAny: contract tests read loosely typed JSON bodies on purpose.
  return async function call<T = any>(
    method: string,
    path: string,
    request: ApiRequest = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...request.headers };
    if (request.key !== undefined) headers["x-api-key"] = request.key;
    let body: string | undefined = request.raw;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: "manual" });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("json")) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T };
  };
}

/** Creates an organization and an API key for it, in-process. */
export async function createTenant(mailpulse: MailPulse, name = "Tenant") {
  const organization = await mailpulse.organizations.create({ name });
  const { key, apiKey } = await mailpulse.apiKeys.create(organization.id);
  return { organization, key, keyId: apiKey.id };
}
