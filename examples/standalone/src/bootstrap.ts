import type { MailPulse } from "@mailpulse/core";

/**
 * On a database with no organization, creates one named `Default` and returns its API key, so
 * a first `npm start` is usable at once. Returns undefined when organizations already exist.
 */
export async function ensureDefaultOrganization(
  mailpulse: MailPulse,
): Promise<{ organizationId: string; apiKey: string } | undefined> {
  if ((await mailpulse.organizations.list()).length > 0) return undefined;
  const organization = await mailpulse.organizations.create({ name: "Default" });
  const { key } = await mailpulse.apiKeys.create(organization.id, { name: "default" });
  return { organizationId: organization.id, apiKey: key };
}
