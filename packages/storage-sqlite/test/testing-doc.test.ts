import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";

// docs/testing.md shows the recipe a host developer copies; it must be the code that runs.
it("docs/testing.md shows testing-recipe.test.ts unchanged, in under 25 lines", async () => {
  const recipe = await readFile(join(import.meta.dirname, "testing-recipe.test.ts"), "utf8");
  const doc = await readFile(join(import.meta.dirname, "../../../docs/testing.md"), "utf8");
  expect(doc).toContain(`\`\`\`ts\n${recipe}\`\`\``);
  expect(recipe.trimEnd().split("\n").length).toBeLessThan(25);
});
