import { createMailPulse, type MailPulse, memoryProvider, type Storage } from "@mailpulse/core";
import type { TrackingHit } from "@mailpulse/core/storage";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { startTestServer } from "@mailpulse/testing/contracts";
import { afterEach, describe, expect, it } from "vitest";

/** Lets queued work run: a few turns of the event loop (the writer flushes on `setImmediate`). */
async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Watches a promise without awaiting it. */
function watch<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T } = { settled: false };
  void promise.then((value) => Object.assign(state, { settled: true, value }));
  return state;
}

/**
 * MailPulse over a real in-memory SQLite storage. The storage's batch write can be held at its
 * door (`hold`/`release`), so a test can see what is answered before and after the commit;
 * every batch that reaches the storage is kept in `batches`.
 */
async function setup(options: { acknowledge?: "after-commit" | "immediately"; failWrites?: boolean } = {}) {
  const real = sqliteStorage({ filename: ":memory:" });
  await real.migrate();
  const batches: TrackingHit[][] = [];
  /** Email ids whose hits the storage refuses, failing any batch that holds one. */
  const refused = new Set<string>();
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  const storage: Storage = {
    ...real,
    tracking: {
      ...real.tracking,
      async recordEvents(hits) {
        batches.push([...hits]);
        await gate;
        if (options.failWrites) throw new Error("disk full");
        const poison = hits.find((hit) => refused.has(hit.event.emailId));
        if (poison) throw new Error(`refused a hit of ${poison.event.emailId}`);
        return real.tracking.recordEvents(hits);
      },
    },
  };
  const errors: string[] = [];
  const mailpulse = createMailPulse({
    storage,
    baseUrl: "http://mail.test",
    mailProvider: memoryProvider(),
    logger: { info: () => {}, error: (message) => errors.push(message) },
    tracking: { acknowledge: options.acknowledge },
  });
  const organization = await mailpulse.organizations.create({ name: "Acme" });
  const sent = await mailpulse.emails.send(organization.id, {
    from: "a@acme.example",
    to: "b@example.com",
    subject: "S",
    htmlContent: '<p><img src="https://example.com/logo.png"><a href="https://example.com/x">x</a></p>',
  });
  const context = {
    storage: real,
    mailpulse,
    sent,
    batches,
    errors,
    refused,
    organizationId: organization.id,
    /** Opens and clicks of the sent email as stored right now. */
    async counts() {
      const tracked = (await real.tracking.findEmails([sent.emailTrackingId]))[0];
      const email = await real.emails.get(organization.id, tracked!.id);
      return { opens: email!.openCount, clicks: email!.clickCount };
    },
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release() {
      open();
    },
  };
  running.push(context);
  return context;
}

const running: Array<{ mailpulse: MailPulse; storage: Storage; release(): void }> = [];
afterEach(async () => {
  for (const context of running.splice(0)) {
    context.release();
    await context.mailpulse.stop();
    await context.storage.close();
  }
});

describe('acknowledge: "after-commit" (the default)', () => {
  it("resolves recordOpen only once the open is committed, and it is in storage then", async () => {
    const context = await setup();
    await context.mailpulse.tracking.recordOpen(context.sent.emailTrackingId, {});
    expect(await context.counts()).toEqual({ opens: 1, clicks: 0 });

    context.hold();
    const second = watch(context.mailpulse.tracking.recordOpen(context.sent.emailTrackingId, {}));
    await turns();
    expect(context.batches).toHaveLength(2);
    expect(second.settled).toBe(false);
    context.release();
    await turns();
    expect(second.settled).toBe(true);
    expect(await context.counts()).toEqual({ opens: 2, clicks: 0 });
  });

  it("answers the pixel and the redirect only after the hit is committed", async () => {
    const context = await setup();
    context.hold();
    const pixel = watch(context.mailpulse.handler(new Request(context.sent.pixelUrl)));
    const click = watch(context.mailpulse.handler(new Request(context.sent.links[0]!.trackingUrl)));
    await turns();
    expect(context.batches.flat().map((hit) => hit.event.type)).toEqual(["open", "click"]);
    expect([pixel.settled, click.settled]).toEqual([false, false]);
    expect(await context.counts()).toEqual({ opens: 0, clicks: 0 });

    context.release();
    await turns();
    expect(pixel.value?.status).toBe(200);
    expect(click.value?.status).toBe(302);
    expect(await context.counts()).toEqual({ opens: 1, clicks: 1 });
  });

  it("has the open stored when a real HTTP client gets the pixel", async () => {
    const context = await setup();
    const server = await startTestServer("fetch", context.mailpulse);
    try {
      const path = new URL(context.sent.pixelUrl).pathname;
      const response = await fetch(`${server.baseUrl}${path}`, { headers: { "user-agent": "Mail/1.0" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/gif");
      await response.arrayBuffer();
      expect(await context.counts()).toEqual({ opens: 1, clicks: 0 });
    } finally {
      await server.close();
    }
  });
  it("still answers the client of a hit the storage refuses, logs it, and records the hits batched with it", async () => {
    const context = await setup();
    const other = await context.mailpulse.emails.send(context.organizationId, {
      from: "a@acme.example",
      to: "c@example.com",
      subject: "Other",
      htmlContent: "<p>other</p>",
    });
    const refusedEmail = (await context.storage.tracking.findEmails([context.sent.emailTrackingId]))[0];
    context.refused.add(refusedEmail!.id);
    const responses = await Promise.all([
      context.mailpulse.handler(new Request(other.pixelUrl)),
      context.mailpulse.handler(new Request(context.sent.pixelUrl)),
      context.mailpulse.handler(new Request(other.pixelUrl)),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    // The three hits were written as one batch first, then bisected.
    expect(context.batches[0]).toHaveLength(3);
    expect(context.errors).toEqual([`MailPulse: could not record open for email ${refusedEmail!.id}`]);
    expect(await context.counts()).toEqual({ opens: 0, clicks: 0 });
    const otherEmail = (await context.storage.tracking.findEmails([other.emailTrackingId]))[0];
    expect((await context.storage.emails.get(context.organizationId, otherEmail!.id))?.openCount).toBe(2);
  });
});

describe('acknowledge: "immediately"', () => {
  it("answers before the hit is committed, and stop() waits until it is", async () => {
    const context = await setup({ acknowledge: "immediately" });
    context.hold();
    await context.mailpulse.tracking.recordOpen(context.sent.emailTrackingId, {});
    const pixel = await context.mailpulse.handler(new Request(context.sent.pixelUrl));
    const click = await context.mailpulse.handler(new Request(context.sent.links[0]!.trackingUrl));
    expect([pixel.status, click.status]).toEqual([200, 302]);
    expect(await context.counts()).toEqual({ opens: 0, clicks: 0 });

    const stopping = context.mailpulse.stop();
    const stopped = watch(stopping);
    await turns();
    expect(stopped.settled).toBe(false);
    context.release();
    await stopping;
    expect(await context.counts()).toEqual({ opens: 2, clicks: 1 });
  });

  it("logs a hit that fails after it was answered, without an unhandled rejection", async () => {
    const context = await setup({ acknowledge: "immediately", failWrites: true });
    const pixel = await context.mailpulse.handler(new Request(context.sent.pixelUrl));
    expect(pixel.status).toBe(200);
    await context.mailpulse.stop();
    expect(context.errors).toEqual([expect.stringContaining("could not record open")]);
  });
});

describe("tracking requests that record nothing", () => {
  it("answers HEAD on the pixel and the link like GET, without recording", async () => {
    const context = await setup();
    const pixel = await context.mailpulse.handler(new Request(context.sent.pixelUrl, { method: "HEAD" }));
    expect(pixel.status).toBe(200);
    expect(pixel.headers.get("content-type")).toBe("image/gif");
    const click = await context.mailpulse.handler(
      new Request(context.sent.links[0]!.trackingUrl, { method: "HEAD" }),
    );
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://example.com/x");
    await context.mailpulse.stop();
    expect(context.batches).toEqual([]);
    expect(await context.counts()).toEqual({ opens: 0, clicks: 0 });
  });

  it("answers unknown ids with the GIF or the not-found page, recording nothing", async () => {
    const context = await setup();
    const pixelUrl = context.sent.pixelUrl.replace(context.sent.emailTrackingId, "unknown-id");
    const linkUrl = context.sent.links[0]!.trackingUrl.replace(
      context.sent.links[0]!.trackingId,
      "unknown-id",
    );
    for (let attempt = 0; attempt < 2; attempt++) {
      const pixel = await context.mailpulse.handler(new Request(pixelUrl));
      expect(pixel.status).toBe(200);
      expect(pixel.headers.get("content-type")).toBe("image/gif");
      expect((await pixel.arrayBuffer()).byteLength).toBeGreaterThan(0);
      const click = await context.mailpulse.handler(new Request(linkUrl));
      expect(click.status).toBe(404);
      expect(click.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(click.headers.get("location")).toBeNull();
      expect(await click.text()).toContain("This link is not valid or has expired.");
    }
    expect(await context.mailpulse.tracking.resolveClick("unknown-id", {})).toBeUndefined();
    await context.mailpulse.stop();
    expect(context.batches).toEqual([]);
    expect(context.errors).toEqual([]);
  });
});
