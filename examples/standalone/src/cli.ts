/**
 * `npm run mailpulse -- <command>`: administration with the server's database settings.
 *
 *   org create <name>            -> {"organization":{"id","name"},"apiKey":"mp_..."}
 *   key create <organizationId>  -> {"apiKey":"mp_..."}
 *   dns platform-records         -> {"records":[{"type":"TXT","name","value","forDomain"}]}
 *                                   (the DKIM keys the operator's zone publishes: docs/domains.md)
 *   reclassify [organizationId]  -> {"emails","hits","changed","flipped"}
 *                                   (judges stored opens and clicks again: docs/measurement.md)
 */
import { isMailPulseError } from "@mailpulse/core";
import { createInstance } from "./create-instance.js";
import { describeStorage, openStorage } from "./open-storage.js";
import { readSettings, SettingsError } from "./settings.js";

const usage = `Usage:
  npm run mailpulse -- org create <name>
  npm run mailpulse -- key create <organizationId>
  npm run mailpulse -- dns platform-records
  npm run mailpulse -- reclassify [organizationId]`;

/** Runs one command and returns the JSON line to print. Throws on bad usage. */
async function run(args: string[]): Promise<unknown> {
  const [resource, verb, ...rest] = args;
  const value = rest.join(" ").trim();
  const platformRecords = resource === "dns" && verb === "platform-records" && !value;
  // `reclassify` takes at most one organization id (all organizations without it).
  const reclassify = resource === "reclassify" && rest.length === 0;
  if (
    !platformRecords &&
    !reclassify &&
    (verb !== "create" || !value || (resource !== "org" && resource !== "key"))
  ) {
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
