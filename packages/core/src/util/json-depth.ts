/**
 * The deepest nesting of objects and arrays a JSON request body may have. Far beyond any real
 * payload (metadata is usually flat), far below what recursive code such as `JSON.stringify`
 * and zod overflow on (about 10,000 levels here).
 */
export const maxJsonDepth = 64;

/**
 * Whether a parsed JSON value nests objects and arrays deeper than `maxDepth` (a scalar has depth
 * 0, `{}` and `[]` depth 1). Walks with an explicit stack, so it cannot overflow itself, and stops
 * at the first value past the bound.
 */
export function exceedsJsonDepth(value: unknown, maxDepth: number = maxJsonDepth): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== "object" || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > maxDepth) return true;
    for (const child of Object.values(next.value)) {
      if (typeof child === "object" && child !== null) pending.push({ value: child, depth });
    }
  }
  return false;
}

/** A JSON text nesting arrays one level past `maxDepth`: what a too-deep parsed body stands for. */
export function tooDeepJsonText(maxDepth: number = maxJsonDepth): string {
  return `${"[".repeat(maxDepth + 1)}${"]".repeat(maxDepth + 1)}`;
}
