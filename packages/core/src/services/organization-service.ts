import { notFound } from "../errors.js";
import type { Organization } from "../ports/storage.js";
import {
  type CreateOrganizationInput,
  createOrganizationSchema,
} from "./organizations/organization-input.js";
import type { ServiceDeps } from "./service-context.js";
import { parseInput } from "./validation/parse-input.js";

/** Organizations: the tenants of a MailPulse instance. There is no HTTP route to create one. */
export interface OrganizationService {
  /** Creates an organization; VALIDATION_FAILED for an invalid input (the name is trimmed, 1 to 200 characters). */
  create(input: CreateOrganizationInput): Promise<Organization>;
  /** The organization; throws NOT_FOUND when missing. */
  get(id: string): Promise<Organization>;
  /** All organizations, oldest first. */
  list(): Promise<Organization[]>;
}

/** Builds the {@link OrganizationService}. */
export function createOrganizationService({ storage, clock, createId }: ServiceDeps): OrganizationService {
  return {
    async create(input) {
      const { name } = parseInput(createOrganizationSchema, input, "organizations.create");
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
