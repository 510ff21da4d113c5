import type { Kysely } from "kysely";

/** The database as a migration sees it: as it was then, so untyped (the schema types describe today's). */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the database as it was, untyped.
export type AnyDb = Kysely<any>;
