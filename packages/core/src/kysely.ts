/**
 * `@mailpulse/core/kysely`: the Kysely implementation of the storage port, shared by the
 * SQLite and PostgreSQL packages (and usable with any other Kysely dialect that fits).
 */
export type { StorageCapabilities } from "./kysely/capabilities.js";
export { createKyselyStorage, type KyselyStorageOptions } from "./kysely/create-kysely-storage.js";
export { createMigrationProvider, migrationTableNames } from "./kysely/migration-provider.js";
export type { MailPulseDatabase } from "./kysely/schema.js";
