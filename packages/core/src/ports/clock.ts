/** The source of the current time. Injected so tests control time (DESIGN: Clock). */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

/** The real clock. */
export const systemClock: Clock = { now: () => new Date() };
