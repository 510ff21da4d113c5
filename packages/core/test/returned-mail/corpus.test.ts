import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyReturnedMail } from "../../src/returned-mail/classify-returned-mail.js";
import type { ReturnedMailVerdict } from "../../src/returned-mail/returned-mail-verdict.js";
import { type ExpectedVerdict, expectedVerdicts } from "./expected-verdicts.js";

const fixtures = join(import.meta.dirname, "../fixtures/returned-mail");
const files = (await readdir(fixtures)).filter((name) => name.endsWith(".eml")).sort();

/** The part of a verdict the expectations name, in the same shape. */
function observed(verdict: ReturnedMailVerdict, expected: ExpectedVerdict): ExpectedVerdict {
  const seen: ExpectedVerdict = { kind: verdict.kind };
  if (verdict.kind === "bounce") {
    seen.format = verdict.format;
    seen.recipients = verdict.recipients.map((r) => [
      r.recipient,
      r.action,
      r.bounceType,
      r.status,
      r.smtpCode,
    ]);
    seen.attribution = [
      verdict.attribution.messageId,
      verdict.attribution.trackingId,
      verdict.attribution.source,
    ];
  }
  if (verdict.kind === "complaint") {
    seen.feedbackType = verdict.feedbackType;
    seen.complainant = verdict.recipient;
    seen.attribution = [
      verdict.attribution.messageId,
      verdict.attribution.trackingId,
      verdict.attribution.source,
    ];
  }
  if (verdict.kind === "auto-reply") seen.autoReplyType = verdict.autoReplyType;
  if (verdict.kind === "read-receipt") {
    seen.disposition = verdict.disposition ?? undefined;
    seen.originalMessageId = verdict.originalMessageId ?? undefined;
  }
  if (verdict.kind === "human-reply") seen.inReplyTo = verdict.inReplyTo;
  if (expected.options) seen.options = expected.options;
  return seen;
}

describe("the returned-mail corpus", () => {
  it("has an expected verdict for every fixture and a fixture for every expectation (40 or more)", () => {
    expect(files).toEqual(Object.keys(expectedVerdicts).sort());
    expect(files.length).toBeGreaterThanOrEqual(40);
  });

  for (const file of files) {
    const expected = expectedVerdicts[file];
    it(`${file} is ${expected?.kind}`, async () => {
      const raw = await readFile(join(fixtures, file));
      const verdict = await classifyReturnedMail(new Uint8Array(raw), expected?.options);
      expect(observed(verdict, expected!), verdict.reasons.join(" | ")).toEqual(expected);
      expect(verdict.reasons.length).toBeGreaterThan(0);
      if (verdict.kind === "bounce")
        for (const recipient of verdict.recipients) {
          expect(recipient.reasons.length).toBeGreaterThan(0);
          expect((recipient.diagnostic ?? "").length).toBeLessThanOrEqual(1000);
        }
    });
  }

  it("reads the same verdict from a string as from bytes", async () => {
    const raw = await readFile(join(fixtures, "postfix-multi-recipient-mixed.eml"), "utf8");
    const fromString = await classifyReturnedMail(raw);
    const fromBytes = await classifyReturnedMail(new TextEncoder().encode(raw));
    expect(fromString).toEqual(fromBytes);
  });

  it("names no recipient in a notice without one unless the return path gives it", async () => {
    const raw = await readFile(join(fixtures, "gateway-notice-no-recipient.eml"));
    const verdict = await classifyReturnedMail(new Uint8Array(raw));
    expect(verdict.kind).toBe("bounce");
    if (verdict.kind !== "bounce") return;
    expect(verdict.recipients).toMatchObject([{ recipient: null, bounceType: "hard", smtpCode: 550 }]);
    expect(verdict.recipients[0]!.reasons.join(" ")).toMatch(/VERP/);
  });
});
