import { notFound } from "../errors.js";
import type { ContactRecord } from "../ports/storage.js";
import type { ContactDetail, ContactSummary, ContactTimelineEvent } from "./contacts/contact-answers.js";
import { encodeContactCursor } from "./contacts/contact-cursor.js";
import { contactListSchema } from "./contacts/contact-list-input.js";
import { ratio } from "./rates.js";
import type { ServiceDeps } from "./service-context.js";
import { type ValidatedMethod, validatedMethod } from "./validation/validated-method.js";

export type { ContactDetail, ContactSummary, ContactTimelineEvent };

/** Entries the contact timeline keeps, newest first. */
export const contactTimelineLimit = 100;

/** A page of contacts; `nextCursor` is null on the last page. */
export interface ContactPage {
  contacts: ContactSummary[];
  nextCursor: string | null;
}

/** The recipients (`to` addresses) an organization emailed, with their engagement. */
export interface ContactService {
  /**
   * Contacts, most recent activity first; VALIDATION_FAILED for an invalid input (a `limit` out
   * of range, a cursor MailPulse did not issue).
   */
  list: ValidatedMethod<[organizationId: string], typeof contactListSchema, ContactPage, true>;
  /** The contact (address case-insensitive); NOT_FOUND when the organization never emailed it. */
  get(organizationId: string, email: string): Promise<ContactDetail>;
}

/**
 * The spec's score, as written: min(100, round((opens/emails x 60 + clicks/emails x 40) x 100)).
 * It saturates quickly (two opens per email already give 100); see docs/statistics.md.
 */
export function engagementScore(contact: Pick<ContactRecord, "totalEmails" | "totalOpens" | "totalClicks">) {
  if (contact.totalEmails === 0) return 0;
  const openRate = contact.totalOpens / contact.totalEmails;
  const clickRate = contact.totalClicks / contact.totalEmails;
  return Math.min(100, Math.round((openRate * 60 + clickRate * 40) * 100));
}

function toSummary(contact: ContactRecord, campaigns: string[]): ContactSummary {
  return {
    email: contact.address,
    totalEmails: contact.totalEmails,
    totalOpens: contact.totalOpens,
    totalClicks: contact.totalClicks,
    campaigns,
    engagementScore: engagementScore(contact),
    lastActivity: contact.lastActivity.toISOString(),
    humanOpens: contact.humanOpens,
    humanClicks: contact.humanClicks,
    humanEngagementScore: engagementScore({
      totalEmails: contact.totalEmails,
      totalOpens: contact.humanOpens,
      totalClicks: contact.humanClicks,
    }),
  };
}

/** Builds the {@link ContactService}. */
export function createContactService(deps: ServiceDeps): ContactService {
  const { storage } = deps;

  async function campaignsOf(organizationId: string, addresses: string[]): Promise<Map<string, string[]>> {
    const byAddress = new Map<string, string[]>(addresses.map((address) => [address, []]));
    for (const { address, name } of await storage.stats.contactCampaigns(organizationId, addresses)) {
      byAddress.get(address)?.push(name);
    }
    for (const names of byAddress.values()) names.sort();
    return byAddress;
  }

  return {
    list: validatedMethod(
      contactListSchema,
      "contacts.list",
      { leading: 1, whenOmitted: {} },
      async (organizationId: string, { limit, cursor: after, ...options }) => {
        const search = options.search?.trim();
        // One row more than asked tells whether a next page exists without a count.
        const rows = await storage.stats.listContacts(organizationId, {
          ...(search ? { search } : {}),
          limit: limit + 1,
          ...(after ? { after } : {}),
        });
        const page = rows.slice(0, limit);
        const last = page.at(-1);
        const campaigns = await campaignsOf(
          organizationId,
          page.map((contact) => contact.address),
        );
        return {
          contacts: page.map((contact) => toSummary(contact, campaigns.get(contact.address) ?? [])),
          nextCursor:
            rows.length > limit && last
              ? encodeContactCursor({ lastActivity: last.lastActivity, address: last.address })
              : null,
        };
      },
    ),
    async get(organizationId, email) {
      const address = email.trim().toLowerCase();
      const contact = await storage.stats.getContact(organizationId, address);
      if (!contact) throw notFound("Contact");
      const [campaigns, timeline, feedback, [suppression]] = await Promise.all([
        campaignsOf(organizationId, [address]),
        storage.stats.contactTimeline(organizationId, address, contactTimelineLimit),
        storage.deliveryFeedback.totals(organizationId, { recipient: address }),
        storage.suppressions.findByAddresses(organizationId, [address]),
      ]);
      return {
        ...toSummary(contact, campaigns.get(address) ?? []),
        firstSeen: contact.firstSeen.toISOString(),
        openRate: ratio(contact.totalOpens, contact.totalEmails),
        clickRate: ratio(contact.totalClicks, contact.totalEmails),
        timeline: timeline.map((entry) => ({
          type: entry.type,
          timestamp: entry.at.toISOString(),
          subject: entry.subject,
          ...(entry.campaign !== null ? { campaign: entry.campaign } : {}),
          ...(entry.link !== null ? { link: entry.link } : {}),
          ...(entry.machine !== null && entry.source !== null
            ? { machine: entry.machine, source: entry.source }
            : {}),
        })),
        ...feedback,
        suppression: suppression
          ? { reason: suppression.reason, since: suppression.createdAt.toISOString() }
          : null,
      };
    },
  };
}
