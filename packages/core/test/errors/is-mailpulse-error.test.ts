import { isMailPulseError, MailPulseError } from "@mailpulse/core";
import { describe, expect, it } from "vitest";

/** What a `MailPulseError` from another copy of the package (the CJS build, say) looks like here. */
class ForeignMailPulseError extends Error {
  override readonly name = "MailPulseError";
  constructor(readonly code: string) {
    super("from another copy");
  }
}

describe("isMailPulseError", () => {
  it("recognises this copy's errors, of any code or of the given one", () => {
    const error = new MailPulseError("CONFLICT", "taken");
    expect(isMailPulseError(error)).toBe(true);
    expect(isMailPulseError(error, "CONFLICT")).toBe(true);
    expect(isMailPulseError(error, "NOT_FOUND")).toBe(false);
  });

  it("recognises an error of another copy of the package by its name and a known code", () => {
    const foreign = new ForeignMailPulseError("NOT_FOUND");
    expect(foreign instanceof MailPulseError).toBe(false);
    expect(isMailPulseError(foreign)).toBe(true);
    expect(isMailPulseError(foreign, "NOT_FOUND")).toBe(true);
    expect(isMailPulseError(foreign, "CONFLICT")).toBe(false);
  });

  it("refuses anything else: other errors, an unknown code, non-errors", () => {
    expect(isMailPulseError(new Error("MailPulseError"))).toBe(false);
    expect(isMailPulseError(new ForeignMailPulseError("NO_SUCH_CODE"))).toBe(false);
    expect(isMailPulseError(new ForeignMailPulseError("toString"))).toBe(false);
    expect(isMailPulseError(undefined)).toBe(false);
    expect(isMailPulseError("MailPulseError")).toBe(false);
  });
});
