import type { OrganizationStore } from "../../ports/storage.js";

/**
 * The origin tracking URLs start with: the organization's verified custom tracking domain
 * (served over HTTPS) when it has one, otherwise the instance's base URL.
 */
export async function trackingBaseUrl(
  organizations: OrganizationStore,
  organizationId: string,
  defaultBaseUrl: string,
): Promise<string> {
  const custom = await organizations.getCustomDomain(organizationId);
  return custom?.verifiedAt ? `https://${custom.domain}` : defaultBaseUrl;
}
