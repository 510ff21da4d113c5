/**
 * `npm run mailpulse -- <command>`: administration with the server's database settings.
 *
 *   org create <name>            -> {"organization":{"id","name"},"apiKey":"mp_..."}
 *   key create <organizationId>  -> {"apiKey":"mp_..."}
 *   org list                     -> {"organizations":[{"id","name","createdAt"}]}
 *   key list <organizationId>    -> {"apiKeys":[{"id","prefix","name","createdAt","revokedAt"}]}
 *                                   (never the key itself: only its hash is stored; no last use is
 *                                   recorded, so none is shown)
 *   key revoke <keyId>           -> {"revoked":{"id","organizationId","revokedAt"}}
 *   dns platform-records         -> {"records":[{"type":"TXT","name","value","forDomain"}]}
 *                                   (the DKIM keys the operator's zone publishes: docs/domains.md)
 *   reclassify [organizationId]  -> {"emails","hits","changed","flipped"}
 *                                   (judges stored opens and clicks again: docs/measurement.md)
 */
import { isMailPulseError, MailPulseError } from "@mailpulse/core";
import { createInstance } from "./create-instance.js";
import { describeStorage, openStorage } from "./open-storage.js";
import { readSettings, SettingsError } from "./settings.js";

const usage = `Usage:
  npm run mailpulse -- org create <name>
  npm run mailpulse -- key create <organizationId>
  npm run mailpulse -- org list
  npm run mailpulse -- key list <organizationId>
  npm run mailpulse -- key revoke <keyId>
  npm run mailpulse -- dns platform-records
  npm run mailpulse -- reclassify [organizationId]`;

/** Runs one command and returns the JSON line to print. Throws on bad usage. */
async function run(args: string[]): Promise<unknown> {
  const [resource, verb, ...rest] = args;
  const value = rest.join(" ").trim();
  const platformRecords = resource === "dns" && verb === "platform-records" && !value;
  // `reclassify` takes at most one organization id (all organizations without it).
  const reclassify = resource === "reclassify" && rest.length === 0;
  const orgList = resource === "org" && verb === "list" && rest.length === 0;
  const keyList = resource === "key" && verb === "list" && rest.length === 1 && value !== "";
  const keyRevoke = resource === "key" && verb === "revoke" && rest.length === 1 && value !== "";
  const create = verb === "create" && value !== "" && (resource === "org" || resource === "key");
  if (!platformRecords && !reclassify && !orgList && !keyList && !keyRevoke && !create) {
    throw new UsageError(usage);
  }
  const settings = readSettings();
  // Every command says which database it works on, before it opens it (issue 30: a key created
  // in the SQLite file while the server ran on PostgreSQL answered "Organization not found").
  // To stderr: stdout keeps its one JSON line.
  console.error(
    `mailpulse: ${describeStorage(settings)} (${settings.databaseUrl ? "DATABASE_URL" : "set DATABASE_URL for PostgreSQL"})`,
  );
  const { storage } = await openStorage(settings);
  const mailpulse = createInstance(settings, storage);
  try {
    if (platformRecords) return { records: await mailpulse.sendingDomains.platformRecords() };
    if (reclassify) {
      // Progress goes to stderr, so stdout keeps its one JSON line.
      return await mailpulse.measurement.reclassifyHistory(verb, (so) =>
        console.error(`mailpulse: ${so.emails} emails, ${so.hits} hits judged again, ${so.changed} changed`),
      );
    }
    if (orgList) {
      const organizations = await mailpulse.organizations.list();
      return {
        organizations: organizations.map(({ id, name, createdAt }) => ({
          id,
          name,
          createdAt: createdAt.toISOString(),
        })),
      };
    }
    if (keyList) {
      // An unknown organization is an error, not an empty list: a mistyped id must not look keyless.
      await mailpulse.organizations.get(value);
      const keys = await mailpulse.apiKeys.list(value);
      return {
        apiKeys: keys.map((key) => ({
          id: key.id,
          prefix: key.prefix,
          name: key.name,
          createdAt: key.createdAt.toISOString(),
          revokedAt: key.revokedAt ? key.revokedAt.toISOString() : null,
        })),
      };
    }
    if (keyRevoke) return { revoked: await revokeKey(mailpulse, value) };
    if (resource === "org") {
      const organization = await mailpulse.organizations.create({ name: value });
      const { key } = await mailpulse.apiKeys.create(organization.id);
      return { organization: { id: organization.id, name: organization.name }, apiKey: key };
    }
    const { key } = await mailpulse.apiKeys.create(value);
    return { apiKey: key };
  } finally {
    await mailpulse.stop();
    await storage.close();
  }
}

/**
 * Revokes the key with this id, whichever organization has it (the operator has the id from
 * `key list`). A key revoked already keeps its first revocation time. "API key not found" when no
 * organization has it.
 */
async function revokeKey(mailpulse: ReturnType<typeof createInstance>, keyId: string) {
  for (const organization of await mailpulse.organizations.list()) {
    const key = (await mailpulse.apiKeys.list(organization.id)).find((candidate) => candidate.id === keyId);
    if (!key) continue;
    // Revoking twice is not an error: the key stays revoked since its first time.
    if (!key.revokedAt) await mailpulse.apiKeys.revoke(organization.id, key.id);
    const revoked = (await mailpulse.apiKeys.list(organization.id)).find(
      (candidate) => candidate.id === keyId,
    );
    return {
      id: keyId,
      organizationId: organization.id,
      revokedAt: revoked?.revokedAt?.toISOString() ?? null,
    };
  }
  throw new MailPulseError("NOT_FOUND", "API key not found");
}

class UsageError extends Error {}

run(process.argv.slice(2)).then(
  (result) => console.log(JSON.stringify(result)),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof SettingsError || isMailPulseError(error)) {
      console.error(error instanceof SettingsError ? `mailpulse: ${error.message}` : error.message);
    } else {
      console.error("mailpulse:", error);
    }
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
