import { MailPulseError, notFound } from "../errors.js";
import type { Organization } from "../ports/storage.js";
import type { ServiceDeps } from "./service-context.js";

/** Organizations: the tenants of a MailPulse instance. There is no HTTP route to create one. */
export interface OrganizationService {
  /** Creates an organization. The name is trimmed; 1 to 200 characters. */
  create(name: string): Promise<Organization>;
  /** The organization; throws NOT_FOUND when missing. */
  get(id: string): Promise<Organization>;
  /** All organizations, oldest first. */
  list(): Promise<Organization[]>;
}

/** Builds the {@link OrganizationService}. */
export function createOrganizationService({ storage, clock, createId }: ServiceDeps): OrganizationService {
  return {
    async create(rawName) {
      const name = rawName.trim();
      if (name.length === 0 || name.length > 200) {
        throw new MailPulseError("VALIDATION_FAILED", "Organization name must be 1 to 200 characters");
      }
      const organization = { id: createId(), name, createdAt: clock.now() };
      await storage.organizations.create(organization);
      return organization;
    },
    async get(id) {
      const organization = await storage.organizations.get(id);
      if (!organization) throw notFound("Organization");
      return organization;
    },
    list: () => storage.organizations.list(),
  };
}
