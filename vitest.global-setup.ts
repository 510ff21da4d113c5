import { ensureTestDatabase } from "./scripts/ensure-test-database.js";

/**
 * Runs once per `vitest` run: says plainly when the PostgreSQL suites are skipped, and how to run
 * them; with `DATABASE_URL` set, creates its database when it is missing, and stops the run in
 * its first seconds, with one line, when the server cannot be used at all.
 */
export default async function globalSetup(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.log(
      "PostgreSQL suites skipped: DATABASE_URL is not set. Run them with DATABASE_URL=postgres://user@127.0.0.1:5432/db npm test",
    );
    return;
  }
  const shown = url.replace(/\/\/[^@]*@/, "//***@");
  const state = await ensureTestDatabase(url);
  console.log(`PostgreSQL suites run against ${shown}${state === "created" ? " (database created)" : ""}`);
}
