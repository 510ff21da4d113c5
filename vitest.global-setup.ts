/** Runs once per `vitest` run: says plainly when the PostgreSQL suites are skipped, and how to run them. */
export default function globalSetup(): void {
  if (!process.env.DATABASE_URL) {
    console.log(
      "PostgreSQL suites skipped: DATABASE_URL is not set. Run them with DATABASE_URL=postgres://user@127.0.0.1:5432/db npm test",
    );
  } else {
    console.log(`PostgreSQL suites run against ${process.env.DATABASE_URL.replace(/\/\/[^@]*@/, "//***@")}`);
  }
}
