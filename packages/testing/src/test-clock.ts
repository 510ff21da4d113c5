import type { Clock } from "@mailpulse/core";

/** A clock tests move by hand. */
export interface TestClock extends Clock {
  /** Sets the current instant. */
  set(at: Date | string): void;
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
}

/** A {@link TestClock} starting at `start` (default 2026-01-15T12:00:00.000Z). */
export function createTestClock(start: Date | string = "2026-01-15T12:00:00.000Z"): TestClock {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    set: (at) => {
      now = new Date(at).getTime();
    },
    advance: (ms) => {
      now += ms;
    },
  };
}
