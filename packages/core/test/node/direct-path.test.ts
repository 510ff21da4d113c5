import { createMailPulse, type MailPulse, memoryProvider } from "@mailpulse/core";
import type { DirectResponse } from "@mailpulse/core/node";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// The tracking routes have two entry points over one implementation: the fetch handler (a
// `Request` in, a `Response` out) and the Node bridge's direct path (plain data both ways). The
// adapters take the direct one; in-process callers and other runtimes take the fetch one. These
// tests pin that both give the same answers and record the same events.

type Storage = ReturnType<typeof sqliteStorage>;
let storage: Storage;
let mailpulse: MailPulse;
let pixelPath: string;
let clickPath: string;
let emailId: string;
let organizationId: string;

beforeEach(async () => {
  storage = sqliteStorage({ filename: ":memory:" });
  await storage.migrate();
  const provider = memoryProvider();
  mailpulse = createMailPulse({
    storage,
    baseUrl: "http://mail.test",
    mailProvider: provider,
    logger: { info: () => {}, error: () => {} },
  });
  const organization = await mailpulse.organizations.create({ name: "Acme" });
  organizationId = organization.id;
  const sent = await mailpulse.emails.send(organization.id, {
    from: "a@acme.example",
    to: "b@example.com",
    subject: "S",
    htmlContent: '<a href="https://example.com/landing?x=1">x</a>',
  });
  emailId = (await storage.emails.list(organization.id, 1))[0]?.id ?? "";
  pixelPath = new URL(sent.pixelUrl).pathname;
  const html = provider.messages[0]?.html ?? "";
  clickPath = new URL(/href="([^"]+)"/.exec(html)?.[1] ?? "http://x/none").pathname;
});

afterEach(async () => {
  await mailpulse.stop();
  await storage.close();
});

async function viaFetch(method: "GET" | "HEAD", path: string) {
  const response = await mailpulse.handler(
    new Request(`http://mail.test${path}`, { method, headers: { "user-agent": "UA/1" } }),
    { clientIp: "198.51.100.7" },
  );
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: Object.fromEntries(response.headers), body };
}

async function viaDirect(method: "GET" | "HEAD", path: string) {
  const answer: DirectResponse | undefined = await mailpulse.handleDirect?.({
    method,
    pathname: path,
    header: (name) => (name === "user-agent" ? "UA/1" : undefined),
    clientIp: "198.51.100.7",
  });
  if (!answer) return undefined;
  const headers = Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { status: answer.status, headers, body: Buffer.from(answer.body ?? "") };
}

async function counters() {
  const email = await storage.emails.get(organizationId, emailId);
  return { opens: email?.openCount, clicks: email?.clickCount };
}

describe("direct path and fetch handler", () => {
  const cases: Array<[string, "GET" | "HEAD", () => string]> = [
    ["known pixel", "GET", () => pixelPath],
    ["unknown pixel", "GET", () => "/api/t/o/no-such-id"],
    ["pixel HEAD", "HEAD", () => pixelPath],
    ["known click", "GET", () => clickPath],
    ["unknown click", "GET", () => "/api/t/c/no-such-id"],
    ["click HEAD", "HEAD", () => clickPath],
    ["too long id", "GET", () => `/api/t/o/${"x".repeat(201)}`],
    ["malformed percent-encoding", "GET", () => "/api/t/c/%E0%A4%A"],
  ];

  it.each(cases)("give the same answer for a %s", async (_name, method, path) => {
    const direct = await viaDirect(method, path());
    const fetched = await viaFetch(method, path());
    expect(direct).toBeDefined();
    expect(direct?.status).toBe(fetched.status);
    expect(direct?.body.equals(fetched.body)).toBe(true);
    for (const [name, value] of Object.entries(direct?.headers ?? {})) {
      expect(fetched.headers[name], name).toBe(value);
    }
  });

  it("record one open and one click per GET on either path, nothing for HEAD", async () => {
    await viaDirect("GET", pixelPath);
    await viaFetch("GET", pixelPath);
    await viaDirect("HEAD", pixelPath);
    await viaDirect("GET", clickPath);
    await viaFetch("GET", clickPath);
    await viaFetch("HEAD", clickPath);
    expect(await counters()).toEqual({ opens: 2, clicks: 2 });
  });

  it("redirects to the stored URL", async () => {
    const direct = await viaDirect("GET", clickPath);
    expect(direct?.status).toBe(302);
    expect(direct?.headers.location).toBe("https://example.com/landing?x=1");
  });

  it("leaves every other route to the fetch handler", async () => {
    for (const path of ["/api/campaigns", "/api/stats", "/api/nope", "/api", "/api/t/o"]) {
      expect(await viaDirect("GET", path), path).toBeUndefined();
    }
  });
});
