import { pathToFileURL } from "node:url";

/** Whether the module at `moduleUrl` is the script Node was started with (not an import of it). */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && moduleUrl === pathToFileURL(script).href;
}
