import { type MailProvider, smtpProvider } from "@mailpulse/core";
import { createTestClock } from "@mailpulse/testing";
import { createTenant, serverKinds } from "@mailpulse/testing/contracts";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestFingerprint } from "../../src/services/idempotency/request-fingerprint.js";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

/** An SMTP provider whose sends wait for `open()`: holds the first request in flight on purpose. */
function gatedSmtpProvider(url: string) {
  const inner = smtpProvider({ url });
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const provider: MailProvider = {
    async send(message) {
      await gate;
      return inner.send(message);
    },
    close: () => inner.close?.(),
  };
  return { provider, open: () => open() };
}

/** Raw answers (status, body text, replay header), to compare them byte for byte. */
async function post(baseUrl: string, path: string, key: string, body: unknown, idempotencyKey?: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": key,
      ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }),
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    text: await response.text(),
    replayed: response.headers.get("idempotent-replayed"),
  };
}

const email = {
  from: "a@shop.example",
  to: "b@example.com",
  subject: "Order 42",
  htmlContent: "<p>Paid</p>",
};

// Real SMTP on loopback, SQLite and PostgreSQL: what reaches the SMTP server is what counts.
for (const storage of storageFactories) {
  describe(`Idempotency-Key on ${storage.name}`, () => {
    let smtp: SmtpTestServer;
    beforeAll(async () => {
      smtp = await startSmtpTestServer({
        reject: (envelope) =>
          envelope.rcptTo.includes("blocked@example.com") ? "mailbox unavailable" : undefined,
      });
    });
    afterAll(async () => {
      await smtp.close();
    });
    const start = (overrides = {}) =>
      apiTargetStarter(
        serverKinds[0]!,
        storage,
      )({ mailProvider: smtpProvider({ url: smtp.url }), ...overrides });
    const messagesTo = (address: string) => smtp.messages.filter((m) => m.envelope.rcptTo.includes(address));

    it("sends once for 20 concurrent identical requests, and gives all 20 the same answer", async () => {
      const target = await start();
      try {
        const { key } = await createTenant(target.mailpulse);
        const json = { ...email, to: `concurrent-${storage.name}@example.com` };
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => post(target.baseUrl, "/api/send", key, json, "order-42")),
        );
        expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
        expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
        expect(answers.filter((answer) => answer.replayed === "true")).toHaveLength(19);
        // Give a second message, were there one, time to arrive before counting.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(messagesTo(json.to)).toHaveLength(1);
        expect(messagesTo(json.to)[0]!.messageId).toBe(JSON.parse(answers[0]!.text).id);
      } finally {
        await target.close();
      }
    });

    it("answers 422 for the key with another body or route, and scopes keys per organization", async () => {
      const target = await start();
      try {
        const acme = await createTenant(target.mailpulse);
        const other = await createTenant(target.mailpulse);
        const json = { ...email, to: `scoped-${storage.name}@example.com` };
        expect((await post(target.baseUrl, "/api/send", acme.key, json, "k1")).status).toBe(200);
        // Same meaning, other key order and spacing: a retry, not a new request.
        const reordered = await fetch(`${target.baseUrl}/api/send`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": acme.key, "idempotency-key": "k1" },
          body: JSON.stringify(
            { htmlContent: json.htmlContent, subject: json.subject, to: json.to, from: json.from },
            null,
            2,
          ),
        });
        expect(reordered.headers.get("idempotent-replayed")).toBe("true");
        const changed = await post(
          target.baseUrl,
          "/api/send",
          acme.key,
          { ...json, subject: "Other" },
          "k1",
        );
        expect(changed.status).toBe(422);
        expect(JSON.parse(changed.text).error).toContain("another request body");
        expect((await post(target.baseUrl, "/api/emails", acme.key, json, "k1")).status).toBe(422);
        expect((await post(target.baseUrl, "/api/send", other.key, json, "k1")).status).toBe(200);
        expect(messagesTo(json.to)).toHaveLength(2);
      } finally {
        await target.close();
      }
    });

    it("replays POST /api/emails with its 201, and refuses malformed keys with 400", async () => {
      const target = await start();
      try {
        const { key } = await createTenant(target.mailpulse);
        const first = await post(target.baseUrl, "/api/emails", key, email, "reg-1");
        const again = await post(target.baseUrl, "/api/emails", key, email, "reg-1");
        expect([first.status, again.status, again.replayed]).toEqual([201, 201, "true"]);
        expect(again.text).toBe(first.text);
        for (const bad of ["", "x".repeat(257), "clé"]) {
          const response = await post(target.baseUrl, "/api/send", key, email, bad);
          expect(response.status, JSON.stringify(bad)).toBe(400);
          expect(JSON.parse(response.text).error).toContain("Idempotency-Key");
        }
      } finally {
        await target.close();
      }
    });

    it("frees the key of a refused request, but keeps the answer of a failed delivery", async () => {
      const target = await start();
      try {
        const { key } = await createTenant(target.mailpulse);
        const invalid = await post(target.baseUrl, "/api/send", key, { ...email, to: "nobody" }, "fix-me");
        expect(invalid.status).toBe(400);
        const fixed = { ...email, to: `fixed-${storage.name}@example.com` };
        expect((await post(target.baseUrl, "/api/send", key, fixed, "fix-me")).status).toBe(200);

        const blocked = { ...email, to: "blocked@example.com" };
        const before = smtp.messages.length;
        const failed = await post(target.baseUrl, "/api/send", key, blocked, "fails");
        const retried = await post(target.baseUrl, "/api/send", key, blocked, "fails");
        expect(failed.status).toBe(500);
        expect([retried.status, retried.text, retried.replayed]).toEqual([500, failed.text, "true"]);
        expect(smtp.messages.length).toBe(before);
        const emails = await target.storage.emails.list(
          (await target.mailpulse.organizations.list())[0]!.id,
          10,
        );
        expect(emails.filter((stored) => stored.status === "failed")).toHaveLength(1);
      } finally {
        await target.close();
      }
    });

    it("makes a repeat wait for the first request in flight, and answers 409 past the wait", async () => {
      const gated = gatedSmtpProvider(smtp.url);
      // Long enough for the first send to finish on a busy machine once the gate opens.
      const waitMs = 2000;
      const target = await start({ mailProvider: gated.provider, sending: { idempotencyWaitMs: waitMs } });
      try {
        const { key } = await createTenant(target.mailpulse);
        const json = { ...email, to: `inflight-${storage.name}@example.com` };
        const first = post(target.baseUrl, "/api/send", key, json, "slow");
        await new Promise((resolve) => setTimeout(resolve, 100));
        // The gate stays shut for longer than this repeat waits.
        const impatient = await post(target.baseUrl, "/api/send", key, json, "slow");
        expect(impatient.status).toBe(409);
        expect(JSON.parse(impatient.text).error).toContain("still in progress");
        const patient = post(target.baseUrl, "/api/send", key, json, "slow");
        await new Promise((resolve) => setTimeout(resolve, 50));
        gated.open();
        const [firstAnswer, patientAnswer] = await Promise.all([first, patient]);
        expect(firstAnswer.status).toBe(200);
        expect([patientAnswer.text, patientAnswer.replayed]).toEqual([firstAnswer.text, "true"]);
        expect(messagesTo(json.to)).toHaveLength(1);
      } finally {
        gated.open();
        await target.close();
      }
    });

    it("forgets keys after 24 hours, purges them, and never resends a request a crash cut off", async () => {
      const clock = createTestClock("2026-03-01T10:00:00.000Z");
      const target = await start({ clock });
      try {
        const { key, organization } = await createTenant(target.mailpulse);
        const json = { ...email, to: `expiry-${storage.name}@example.com` };
        const first = await post(target.baseUrl, "/api/send", key, json, "daily");
        clock.advance(24 * 60 * 60 * 1000 - 1);
        expect((await post(target.baseUrl, "/api/send", key, json, "daily")).replayed).toBe("true");
        clock.advance(1);
        const later = await post(target.baseUrl, "/api/send", key, json, "daily");
        expect([later.status, later.replayed]).toEqual([200, null]);
        expect(later.text).not.toBe(first.text);
        expect(messagesTo(json.to)).toHaveLength(2);

        const keys = target.storage.idempotencyKeys;
        await keys.claim(organization.id, "old", {
          fingerprint: "f",
          now: clock.now(),
          expiresAt: clock.now(),
        });
        clock.advance(1);
        await target.mailpulse.start();
        expect(await keys.get(organization.id, "old")).toBeUndefined();
        expect(await keys.get(organization.id, "daily")).toBeDefined();

        // A claim with no answer, older than staleAfterMs (15 minutes): its process died mid-send.
        const cutOff = { ...json, subject: "Cut off" };
        await keys.claim(organization.id, "crashed", {
          fingerprint: requestFingerprint("POST /send", cutOff),
          now: clock.now(),
          expiresAt: new Date(clock.now().getTime() + 24 * 60 * 60 * 1000),
        });
        clock.advance(15 * 60 * 1000 + 1);
        const before = smtp.messages.length;
        const retried = await post(target.baseUrl, "/api/send", key, cutOff, "crashed");
        expect(retried.status).toBe(409);
        expect(JSON.parse(retried.text).error).toContain("interrupted");
        expect(smtp.messages.length).toBe(before);
      } finally {
        await target.close();
      }
    });
  });
}
