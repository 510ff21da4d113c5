import { describe, expect, it } from "vitest";
import { createResourceId, createSecretToken } from "../../src/util/ids.js";

describe("createResourceId", () => {
  it("sorts in creation order, also within one millisecond", () => {
    const ids = Array.from({ length: 5000 }, () => createResourceId(1_800_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps the UUIDv7 version and variant bits and starts with the timestamp", () => {
    const id = createResourceId(Date.UTC(2030, 0, 1));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16)).toBeGreaterThanOrEqual(
      Date.UTC(2030, 0, 1),
    );
  });
});

describe("createSecretToken", () => {
  it("is 128 random bits in base64url by default", () => {
    expect(createSecretToken()).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(createSecretToken()).not.toBe(createSecretToken());
  });
});
