import type { Storage } from "../../ports/storage.js";

/** Creates a fresh, empty, migrated storage for one test (or one group of tests); `close` releases it. */
export type StorageFactory = () => Promise<Storage>;
