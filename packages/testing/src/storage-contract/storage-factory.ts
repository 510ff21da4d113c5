import type { Storage } from "@mailpulse/core/storage";

/** Creates a fresh, empty, migrated storage for one test (or one group of tests); `close` releases it. */
export type StorageFactory = () => Promise<Storage>;
