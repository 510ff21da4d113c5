/**
 * A service method with an input has one schema and two entries: called as a function (an
 * in-process host) it parses its input; `parsed` (what a route calls, having parsed the request
 * once with the same `schema`) trusts what it is given.
 */
import { isMailPulseError } from "@mailpulse/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validatedMethod } from "../../src/services/validation/validated-method.js";

const schema = z.object({ limit: z.coerce.number<number>().int().max(10).default(5) });

function createList() {
  const seen: unknown[] = [];
  const list = validatedMethod<[organizationId: string], typeof schema, string, true>(
    schema,
    "things.list",
    { leading: 1, whenOmitted: {} },
    async (organizationId, input) => {
      seen.push(input);
      return `${organizationId}:${input.limit}`;
    },
  );
  return { list, seen };
}

describe("validatedMethod", () => {
  it("parses the input of a direct call, and takes the omitted input as whenOmitted", async () => {
    const { list, seen } = createList();
    await expect(list("org", { limit: 3 })).resolves.toBe("org:3");
    await expect(list("org")).resolves.toBe("org:5");
    expect(seen).toEqual([{ limit: 3 }, { limit: 5 }]);
  });

  it("refuses an invalid input as VALIDATION_FAILED naming the operation, as a rejected promise", async () => {
    const { list, seen } = createList();
    const error = await list("org", { limit: 11 }).catch((caught: unknown) => caught);
    expect(isMailPulseError(error, "VALIDATION_FAILED")).toBe(true);
    expect((error as Error).message).toMatch(/^Invalid input of things\.list: "limit"/);
    expect(seen).toEqual([]);
  });

  it("runs parsed input through `parsed` without parsing it again, and exposes its schema", async () => {
    const { list, seen } = createList();
    expect(list.schema).toBe(schema);
    // Out of range on purpose: `parsed` trusts its caller, which parsed with `list.schema`.
    await expect(list.parsed("org", { limit: 99 })).resolves.toBe("org:99");
    expect(seen).toEqual([{ limit: 99 }]);
  });
});
