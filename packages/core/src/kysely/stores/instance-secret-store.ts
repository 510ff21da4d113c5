import type { Kysely } from "kysely";
import type { InstanceSecretStore } from "../../ports/storage.js";
import type { MailPulseDatabase } from "../schema.js";

/**
 * {@link InstanceSecretStore} on Kysely (`mailpulse_instance_secret`, migration 0009). Race-safe
 * without a lock: the insert does nothing when the name exists (also when a concurrent insert
 * committed first; PostgreSQL waits for it), and the value read back afterwards is the one stored
 * first, in every process.
 */
export function createInstanceSecretStore(
  db: Kysely<MailPulseDatabase>,
  now: () => number = Date.now,
): InstanceSecretStore {
  return {
    async getOrCreate(name, candidate) {
      await db
        .insertInto("mailpulse_instance_secret")
        .values({ name, value: candidate, created_at: now() })
        .onConflict((conflict) => conflict.column("name").doNothing())
        .execute();
      const row = await db
        .selectFrom("mailpulse_instance_secret")
        .select("value")
        .where("name", "=", name)
        .executeTakeFirstOrThrow();
      return row.value;
    },
  };
}
