import pg from "pg";

/** What {@link ensureTestDatabase} found or did. */
export type TestDatabaseState = "exists" | "created";

/** PostgreSQL's SQLSTATE for "database does not exist". */
const invalidCatalogName = "3D000";

/**
 * Makes sure the database `DATABASE_URL` names exists before the PostgreSQL suites run on it
 * (issue 30: `DATABASE_URL=.../newcomer_test npm test` before `createdb` gave 133 failures after
 * 137 s). Connects to it; when PostgreSQL answers that it does not exist, connects to the
 * server's `postgres` database with the same credentials and creates it. Any other failure (the
 * server is down, the password is wrong) rejects at once with one line that says what and where,
 * the password hidden: the caller (vitest's global setup) stops the run there.
 */
export async function ensureTestDatabase(url: string, connectTimeoutMs = 3000): Promise<TestDatabaseState> {
  const shown = url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  try {
    await probe(url, connectTimeoutMs);
    return "exists";
  } catch (error) {
    if ((error as { code?: unknown }).code !== invalidCatalogName || name === "") {
      throw new Error(`PostgreSQL at ${shown} cannot be used: ${describe(error)}`);
    }
  }
  const server = new URL(url);
  server.pathname = "/postgres";
  const client = new pg.Client({ connectionString: server.href, connectionTimeoutMillis: connectTimeoutMs });
  try {
    await client.connect();
    await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    // Two runs at once: the other one created it first.
    if ((error as { code?: unknown }).code === "42P04") return "exists";
    throw new Error(
      `PostgreSQL database ${name} is missing and cannot be created at ${shown}: ${describe(error)}`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  return "created";
}

async function probe(url: string, connectTimeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  try {
    await client.connect();
  } finally {
    await client.end().catch(() => undefined);
  }
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(describe).join("; ");
  if (error instanceof Error)
    return error.message || String((error as { code?: unknown }).code ?? error.name);
  return String(error);
}
