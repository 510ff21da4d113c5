/** A private temporary folder for one benchmark's databases, path lists and scripts. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A folder under the OS temp folder; `remove()` deletes it with its contents. */
export interface TempFolder {
  path: string;
  /** `path` joined with `name`. */
  file(name: string): string;
  remove(): void;
}

/** Creates a folder `mailpulse-bench-<random>` in the OS temp folder. */
export function createTempFolder(): TempFolder {
  const path = mkdtempSync(join(tmpdir(), "mailpulse-bench-"));
  return {
    path,
    file: (name) => join(path, name),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}
