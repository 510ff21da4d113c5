/**
 * NUL characters: PostgreSQL refuses them in text (a 500 from the driver) while SQLite stores
 * them, so one behaviour for both dialects means refusing them at the door, naming the field.
 */

/** The message of a field that holds a NUL character. */
export const nulMessage = "must not contain NUL characters (\\u0000)";

/** True when `value` holds no NUL character. */
export function hasNoNul(value: string): boolean {
  return !value.includes("\u0000");
}

/**
 * The path to the first string (value or object key) holding a NUL inside a JSON-like value, or
 * undefined when there is none. Keys count too: they are stored as text as well.
 */
export function findNul(
  value: unknown,
  path: Array<string | number> = [],
): Array<string | number> | undefined {
  if (typeof value === "string") return hasNoNul(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!hasNoNul(key)) return [...path, key];
      const found = findNul(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
