import { describe, expect, it } from "vitest";
import { classifyReturnedMail, returnedMailLimits } from "../../src/returned-mail/classify-returned-mail.js";

// A return-path address receives whatever anyone sends it. Each of these must come back as a
// verdict (malformed where nothing can be read), quickly, never as an exception.

const bounceHead =
  "From: MAILER-DAEMON@mx.example\r\nSubject: Undelivered Mail Returned to Sender\r\nMIME-Version: 1.0\r\n" +
  'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n' +
  "--b\r\nContent-Type: text/plain\r\n\r\nThe mail system\r\n\r\n" +
  "--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example\r\n\r\n" +
  "Final-Recipient: rfc822; gone@example.com\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n" +
  "--b\r\nContent-Type: message/rfc822\r\n\r\nMessage-ID: <big@acme.example>\r\nSubject: big\r\n\r\n";

async function timed(raw: Uint8Array | string) {
  const started = performance.now();
  const verdict = await classifyReturnedMail(raw);
  return { verdict, ms: performance.now() - started };
}

describe("classifyReturnedMail on hostile input", () => {
  it("reads a 30 MB message only up to its limit, and keeps a bounce found there", async () => {
    const body = new Uint8Array(30 * 1024 * 1024).fill(0x41);
    const head = new TextEncoder().encode(bounceHead);
    const raw = new Uint8Array(head.length + body.length);
    raw.set(head);
    raw.set(body, head.length);
    const { verdict, ms } = await timed(raw);
    expect(verdict).toMatchObject({
      kind: "bounce",
      recipients: [{ recipient: "gone@example.com", bounceType: "hard" }],
    });
    expect(verdict.reasons.join(" ")).toMatch(/Only the first/);
    expect(ms).toBeLessThan(5000);
  });

  it("calls a 30 MB message with no report in its first bytes malformed", async () => {
    const raw = `From: someone@example.com\r\nSubject: big\r\n\r\n${"x".repeat(30 * 1024 * 1024)}`;
    const { verdict, ms } = await timed(raw);
    expect(verdict).toMatchObject({ kind: "malformed" });
    expect(verdict.kind === "malformed" && verdict.reason).toMatch(/larger than/);
    expect(ms).toBeLessThan(5000);
  });

  it("calls deep multipart nesting malformed", async () => {
    let raw = 'From: a@example.com\r\nContent-Type: multipart/mixed; boundary="n0"\r\n\r\n';
    for (let depth = 1; depth < 5000; depth++)
      raw += `--n${depth - 1}\r\nContent-Type: multipart/mixed; boundary="n${depth}"\r\n\r\n`;
    const { verdict, ms } = await timed(raw);
    expect(verdict).toMatchObject({ kind: "malformed" });
    expect(verdict.kind === "malformed" && verdict.reason).toMatch(/nesting/i);
    expect(ms).toBeLessThan(5000);
  });

  it("calls a header block over the limit malformed", async () => {
    const raw = `From: a@example.com\r\nX-Huge: ${"h".repeat(returnedMailLimits.maxHeadersBytes + 10)}\r\n\r\nbody`;
    const { verdict, ms } = await timed(raw);
    expect(verdict).toMatchObject({ kind: "malformed" });
    expect(verdict.kind === "malformed" && verdict.reason).toMatch(/header size/i);
    expect(ms).toBeLessThan(5000);
  });

  it("survives many folded header lines and huge report fields within the limits", async () => {
    const folded = `X-Folded: a${"\r\n b".repeat(100_000)}`;
    const raw = `${bounceHead.replace("Final-Recipient", `X-Big: ${"z".repeat(200_000)}\r\nFinal-Recipient`)}\r\n--b--\r\n`;
    const { verdict, ms } = await timed(`${folded}\r\n${raw}`);
    expect(["bounce", "malformed"]).toContain(verdict.kind);
    expect(ms).toBeLessThan(5000);
  });

  it("calls 8-bit garbage and empty input malformed", async () => {
    const garbage = new Uint8Array(1024 * 1024);
    for (let index = 0; index < garbage.length; index++) garbage[index] = (index * 7919 + 13) % 256;
    expect((await classifyReturnedMail(garbage)).kind).toBe("malformed");
    expect((await classifyReturnedMail("")).kind).toBe("malformed");
    expect((await classifyReturnedMail(new Uint8Array())).kind).toBe("malformed");
  });

  it("reads 8-bit bytes inside an otherwise sound bounce without failing", async () => {
    const raw =
      bounceHead.replace("The mail system", "The mail system \u00ff\u00fe\ud800") +
      "\xff\xfe body\r\n--b--\r\n";
    const verdict = await classifyReturnedMail(raw);
    expect(verdict).toMatchObject({ kind: "bounce", attribution: { messageId: "<big@acme.example>" } });
  });

  it("gives a verdict for every truncation of a bounce, never an exception", async () => {
    const whole = `${bounceHead}body\r\n--b--\r\n`;
    for (let length = 0; length <= whole.length; length += 7) {
      const verdict = await classifyReturnedMail(whole.slice(0, length));
      expect(["bounce", "malformed", "human-reply"]).toContain(verdict.kind);
    }
  });

  it("keeps the work bounded when a message has thousands of parts", async () => {
    let raw =
      'From: MAILER-DAEMON@mx.example\r\nSubject: Undelivered Mail\r\nContent-Type: multipart/mixed; boundary="p"\r\n\r\n';
    for (let part = 0; part < 20_000; part++)
      raw += "--p\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n";
    raw += "--p--\r\n";
    const { verdict, ms } = await timed(raw);
    expect(verdict.kind).toBe("malformed");
    expect(ms).toBeLessThan(5000);
  });
});
