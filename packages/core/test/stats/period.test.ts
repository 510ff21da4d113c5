import { describe, expect, it } from "vitest";
import { parsePeriod } from "../../src/services/period.js";

const now = new Date("2026-03-10T15:00:00.000Z");
const iso = (period: ReturnType<typeof parsePeriod>) => ({
  start: period.start.toISOString(),
  end: period.end.toISOString(),
  days: period.lastDay - period.firstDay + 1,
});

describe("parsePeriod", () => {
  it("resolves 7d, 30d and 90d to today and the N-1 UTC days before it, ending now", () => {
    expect(iso(parsePeriod("7d", now))).toEqual({
      start: "2026-03-04T00:00:00.000Z",
      end: "2026-03-10T15:00:00.000Z",
      days: 7,
    });
    expect(iso(parsePeriod("30d", now))).toMatchObject({ start: "2026-02-09T00:00:00.000Z", days: 30 });
    expect(iso(parsePeriod("90d", now))).toMatchObject({ start: "2025-12-11T00:00:00.000Z", days: 90 });
    // At midnight exactly, today is a new day with nothing in it yet.
    expect(iso(parsePeriod("7d", new Date("2026-03-11T00:00:00.000Z")))).toEqual({
      start: "2026-03-05T00:00:00.000Z",
      end: "2026-03-11T00:00:00.000Z",
      days: 7,
    });
  });

  it("resolves an inclusive range to whole days, leap days and one-day ranges included", () => {
    expect(iso(parsePeriod("2026-02-01,2026-02-28", now))).toEqual({
      start: "2026-02-01T00:00:00.000Z",
      end: "2026-02-28T23:59:59.999Z",
      days: 28,
    });
    expect(iso(parsePeriod("2024-02-29,2024-02-29", now))).toMatchObject({ days: 1 });
    expect(iso(parsePeriod("2024-01-01, 2024-12-31", now))).toMatchObject({ days: 366 });
  });

  it.each([
    ["", "unknown format"],
    ["30", "unknown format"],
    ["14d", "unknown format"],
    ["7D", "unknown format"],
    ["2026-03-01", "unknown format"],
    ["2026-3-1,2026-3-5", "unknown format"],
    ["2026-02-30,2026-03-01", "2026-02-30 is not a calendar date"],
    ["2025-02-29,2025-03-01", "2025-02-29 is not a calendar date"],
    ["2026-03-05,2026-03-04", "the range ends before it starts"],
    ["2024-01-01,2025-01-01", "the range spans 367 days"],
    // Names every object inherits: a lookup table must not find them (a 500 before).
    ["__proto__", "unknown format"],
    ["toString", "unknown format"],
    ["constructor", "unknown format"],
    ["hasOwnProperty", "unknown format"],
  ])("refuses %j (%s) with 400 listing the accepted formats", (input, reason) => {
    let error: unknown;
    try {
      parsePeriod(input, now);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      code: "VALIDATION_FAILED",
      status: 400,
      message: `Invalid period "${input}": ${reason}. Accepted formats: 7d, 30d, 90d, or an inclusive date range YYYY-MM-DD,YYYY-MM-DD of at most 366 days`,
    });
  });
});
