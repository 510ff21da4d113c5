import type { EventPosition } from "../../ports/storage.js";

/** Encodes an event log position as an opaque base64url token (a page's `nextCursor`). */
export function encodeEventCursor(position: EventPosition): string {
  return Buffer.from(JSON.stringify([position.transaction, position.id])).toString("base64url");
}

/** Decodes {@link encodeEventCursor}'s token; `undefined` when it is not one. */
export function decodeEventCursor(token: string): EventPosition | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [transaction, id] = value;
  const validTransaction =
    transaction === null || (typeof transaction === "string" && /^[0-9]{1,20}$/.test(transaction));
  if (!validTransaction || !Number.isSafeInteger(id) || id < 0) return undefined;
  return { transaction, id };
}
