import { createHash } from "node:crypto";

/** JSON with object keys sorted at every level: two bodies that mean the same hash the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * What a request asked, as a SHA-256 hex digest of the operation and its input: the same key
 * reused for another operation or another body is told apart from a retry. Key order and
 * whitespace do not matter.
 */
export function requestFingerprint(operation: string, input: unknown): string {
  return createHash("sha256").update(operation).update("\n").update(canonicalJson(input)).digest("hex");
}
