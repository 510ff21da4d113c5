import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/webhooks/retry-after.js";

const now = Date.parse("2026-11-23T13:00:00Z");

describe("parseRetryAfter", () => {
  it("reads delay-seconds", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("30", now)).toBe(30_000);
    expect(parseRetryAfter(" 3600 ", now)).toBe(3_600_000);
  });

  it("reads an HTTP date as the time left until it, and a past one as no wait", () => {
    expect(parseRetryAfter("Mon, 23 Nov 2026 13:02:30 GMT", now)).toBe(150_000);
    expect(parseRetryAfter("Mon, 23 Nov 2026 12:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("Monday, 23-Nov-26 13:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Mon Nov 23 13:00:10 2026", now)).toBe(10_000);
  });

  it("ignores what is neither", () => {
    for (const value of [undefined, "", "soon", "-5", "1.5", "2026-11-23T13:05:00Z", "Mon, 99 Foo 2026"]) {
      expect(parseRetryAfter(value, now)).toBeNull();
    }
  });
});
