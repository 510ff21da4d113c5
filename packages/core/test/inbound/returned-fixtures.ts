import { readFileSync } from "node:fs";

/**
 * A fixture of `test/fixtures/returned-mail` rewritten to be about an email this test really
 * sent: each key of `replacements` (a placeholder recipient, tracking id or Message-ID of the
 * fixture) replaced by its value everywhere.
 */
export function returnedFixture(name: string, replacements: Record<string, string>): string {
  let text = readFileSync(new URL(`../fixtures/returned-mail/${name}`, import.meta.url), "latin1");
  for (const [placeholder, value] of Object.entries(replacements)) text = text.replaceAll(placeholder, value);
  return text;
}
