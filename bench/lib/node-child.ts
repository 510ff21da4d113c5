/** Starting bench entry points as child Node processes with the same loader as this one. */

/**
 * Arguments that run the TypeScript file `entry` in a new Node process the way this process runs:
 * tsx's loader and `--conditions=source` are in `process.execArgv`. Spawning Node itself (rather
 * than the `tsx` CLI, which forwards signals to a grandchild) means a SIGKILL reaches the process
 * doing the work.
 */
export function nodeArguments(entry: URL, ...rest: string[]): string[] {
  return [...process.execArgv, entry.pathname, ...rest];
}
