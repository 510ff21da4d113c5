import type { JsonObject } from "../util/json.js";
import { webhookSchemas } from "./webhook-schemas.js";

/**
 * The JSON Schemas of the bodies the API reads and answers (`#/components/schemas/...`). Request
 * bodies are parsed by the services' zod schemas; these describe them for clients, and the
 * OpenAPI test checks every documented example against them and the live answers too.
 */
/** The properties of a sending domain, in its answers with and without `verified`. */
const sendingDomainProperties: JsonObject = {
  id: {
    type: "string",
  },
  domain: {
    type: "string",
  },
  status: {
    enum: ["pending", "verified"],
  },
  records: {
    type: "array",
    items: {
      $ref: "#/components/schemas/DnsRecord",
    },
  },
  createdAt: {
    type: "string",
    format: "date-time",
  },
};

/** What both sending answers say of the tracking they applied (`SendEmailResult`, `RegisterEmailResult`). */
const trackedContentProperties: JsonObject = {
  links: {
    type: "array",
    items: {
      $ref: "#/components/schemas/TrackedLink",
    },
    description: "The tracked links; empty when `tracking.clicks` is false.",
  },
  pixelUrl: {
    type: "string",
    description:
      "`{base}/api/t/o/<emailTrackingId>`. Returned even when `tracking.opens` is false (the pixel is then not injected).",
  },
};

/** The properties a contact has in the list and in its detail (`Contact`, `ContactDetail`). */
const contactSummaryProperties: JsonObject = {
  email: {
    type: "string",
    description: "The address, lowercased.",
  },
  totalEmails: {
    type: "integer",
    minimum: 0,
    description: "Emails sent to the contact.",
  },
  totalOpens: {
    type: "integer",
    minimum: 0,
    description: "Open events.",
  },
  totalClicks: {
    type: "integer",
    minimum: 0,
    description: "Click events.",
  },
  campaigns: {
    type: "array",
    items: {
      type: "string",
    },
    description: "Names of the campaigns the contact received, sorted.",
  },
  engagementScore: {
    type: "integer",
    minimum: 0,
    maximum: 100,
    description: "min(100, round((totalOpens / totalEmails x 60 + totalClicks / totalEmails x 40) x 100)).",
  },
  lastActivity: {
    type: "string",
    format: "date-time",
    description: "The contact's latest email, open or click.",
  },
  humanOpens: {
    type: "integer",
    minimum: 0,
    description: "Open events judged human (docs/measurement.md).",
  },
  humanClicks: {
    type: "integer",
    minimum: 0,
    description: "Click events judged human.",
  },
  humanEngagementScore: {
    type: "integer",
    minimum: 0,
    maximum: 100,
    description: "The engagement score's formula on human events only.",
  },
};

/** A whole number of events or emails. */
const countOf = (description: string): JsonObject => ({ type: "integer", minimum: 0, description });
/** A percentage, two decimals. */
const percentOf = (description: string, maximum?: number): JsonObject => ({
  type: "number",
  minimum: 0,
  ...(maximum === undefined ? {} : { maximum }),
  description,
});

/** `stats.human` of the campaign detail. */
const detailHumanStats: JsonObject = {
  type: "object",
  description:
    "The same figures over hits judged human only: Apple's privacy prefetch, security scanners and bots left out (docs/measurement.md).",
  required: ["totalOpens", "totalClicks", "openRate", "clickRate", "noInteraction"],
  properties: {
    totalOpens: countOf("Human open events."),
    totalClicks: countOf("Human click events."),
    openRate: percentOf("Emails a person opened (a human open or click) / emails x 100.", 100),
    clickRate: percentOf("Emails a person clicked / emails x 100.", 100),
    noInteraction: countOf("Emails with no human open and no human click."),
  },
  additionalProperties: false,
};

/** `stats.human` of the period statistics. */
const periodHumanStats: JsonObject = {
  type: "object",
  description: "The same figures over hits judged human only (docs/measurement.md).",
  required: ["totalOpens", "totalClicks", "openRate", "clickThroughRate", "noInteraction"],
  properties: {
    totalOpens: countOf("Human open events in the period."),
    totalClicks: countOf("Human click events in the period."),
    openRate: percentOf(
      "Emails sent in the period that a person opened / emails sent in the period x 100.",
      100,
    ),
    clickThroughRate: percentOf("Human clicks / human opens x 100 (0 without human opens)."),
    noInteraction: countOf("Emails sent in the period with no human open and no human click."),
  },
  additionalProperties: false,
};

/** `human` of the global statistics. */
const globalHumanStats: JsonObject = {
  type: "object",
  description: "The same figures over hits judged human only (docs/measurement.md).",
  required: ["totalOpens", "totalClicks", "openRate", "clickRate"],
  properties: {
    totalOpens: countOf("Human open events."),
    totalClicks: countOf("Human click events."),
    openRate: percentOf("Emails a person opened / emails x 100.", 100),
    clickRate: percentOf("Emails a person clicked / emails x 100.", 100),
  },
  additionalProperties: false,
};
export const componentSchemas: Record<string, JsonObject> = {
  Error: {
    type: "object",
    description: "Every error body.",
    required: ["error"],
    properties: {
      error: {
        type: "string",
        description: "A message meant for the API client.",
      },
    },
    additionalProperties: false,
  },
  Success: {
    type: "object",
    required: ["success"],
    properties: {
      success: {
        const: true,
      },
    },
    additionalProperties: false,
  },
  Mailbox: {
    type: "string",
    description:
      "An email address, optionally with a display name: `ann@example.com` or `Ann Lee <ann@example.com>` (the name may be quoted). Control characters (CR, LF...) are refused; the address must have exactly one `@`, a 1 to 64 character local part, no spaces, at most 254 characters and a dotted (or bracketed literal) domain.",
    examples: ["ann@example.com", "Ann Lee <ann@example.com>"],
  },
  MailboxList: {
    description: "One mailbox, or an array of at most 50.",
    oneOf: [
      {
        $ref: "#/components/schemas/Mailbox",
      },
      {
        type: "array",
        items: {
          $ref: "#/components/schemas/Mailbox",
        },
        maxItems: 50,
      },
    ],
  },
  Recipients: {
    description: "One mailbox, or an array of 1 to 50.",
    oneOf: [
      {
        $ref: "#/components/schemas/Mailbox",
      },
      {
        type: "array",
        items: {
          $ref: "#/components/schemas/Mailbox",
        },
        minItems: 1,
        maxItems: 50,
      },
    ],
  },
  Subject: {
    type: "string",
    maxLength: 998,
    pattern: "^[^\\r\\n]*$",
    description: "The subject line: no line breaks, at most 998 characters.",
  },
  CampaignReference: {
    type: "string",
    minLength: 1,
    maxLength: 200,
    description:
      "The campaign to associate the email with: a campaign name (looked up first) or a campaign id. Trimmed; 1 to 200 characters. A name that does not exist yet creates the campaign (`403` past the plan's campaign limit); an archived campaign is refused (`400`).",
  },
  Metadata: {
    type: "object",
    additionalProperties: true,
    description:
      "Custom data stored with the email and included in its webhook events; at most 16 KiB once serialised as JSON.",
  },
  TrackingSwitches: {
    type: "object",
    description: "What to track. Both default to true.",
    properties: {
      opens: {
        type: "boolean",
        default: true,
        description: "Inject the open pixel.",
      },
      clicks: {
        type: "boolean",
        default: true,
        description: "Rewrite links to tracking URLs.",
      },
    },
    additionalProperties: false,
  },
  SendEmailRequest: {
    type: "object",
    required: ["from", "to", "subject", "htmlContent"],
    properties: {
      from: {
        $ref: "#/components/schemas/Mailbox",
        description:
          "The sender, optionally with a display name (`Name <address>`). Used as given when its domain is a verified sending domain of the organization; otherwise rewritten to the same local part at `send.<platformDomain>` with `Reply-To` set to it.",
      },
      to: {
        $ref: "#/components/schemas/Recipients",
        description: "The recipient(s): each becomes a contact.",
      },
      subject: {
        $ref: "#/components/schemas/Subject",
      },
      htmlContent: {
        type: "string",
        minLength: 1,
        description: "The HTML body, before tracking is applied.",
      },
      text: {
        type: "string",
        description: "The plain-text part. Default: generated from the tracked HTML.",
      },
      replyTo: {
        $ref: "#/components/schemas/Mailbox",
        description: "The Reply-To address.",
      },
      cc: {
        $ref: "#/components/schemas/MailboxList",
      },
      bcc: {
        $ref: "#/components/schemas/MailboxList",
      },
      campaignId: {
        $ref: "#/components/schemas/CampaignReference",
      },
      metadata: {
        $ref: "#/components/schemas/Metadata",
      },
      attachments: {
        type: "array",
        maxItems: 20,
        items: {
          $ref: "#/components/schemas/Attachment",
        },
        description: "Files to attach: at most 20, 10 MiB decoded in all. Content only, never a path or URL.",
      },
      headers: {
        type: "object",
        maxProperties: 50,
        additionalProperties: {
          type: "string",
          maxLength: 998,
        },
        description:
          "Extra headers (`List-Unsubscribe`, `In-Reply-To`, `X-Entity-Ref-ID`...). Refused (400): From, To, Cc, Bcc, Reply-To, Sender, Subject, Date, Message-ID, MIME-Version, DKIM-Signature, Return-Path, Received, X-Mailer, every `Content-*` and `X-MailPulse-*`.",
      },
      tags: {
        $ref: "#/components/schemas/Tags",
      },
      tracking: {
        $ref: "#/components/schemas/TrackingSwitches",
      },
    },
    additionalProperties: false,
  },
  Attachment: {
    type: "object",
    required: ["filename", "content"],
    properties: {
      filename: {
        type: "string",
        minLength: 1,
        maxLength: 255,
        description: "The name the recipient sees; no `/` or `\\`.",
      },
      content: {
        type: "string",
        contentEncoding: "base64",
        description: "The file's bytes, base64-encoded (line breaks allowed).",
      },
      contentType: {
        type: "string",
        description: "MIME type. Default: guessed from the file name.",
      },
    },
    additionalProperties: false,
  },
  Tags: {
    type: "array",
    maxItems: 20,
    description: "Labels stored with the email and returned with it; names are unique within an email.",
    items: {
      $ref: "#/components/schemas/Tag",
    },
  },
  Tag: {
    type: "object",
    required: ["name", "value"],
    properties: {
      name: {
        type: "string",
        pattern: "^[A-Za-z0-9_-]{1,256}$",
      },
      value: {
        type: "string",
        pattern: "^[A-Za-z0-9_-]{1,256}$",
      },
    },
    additionalProperties: false,
  },
  Email: {
    type: "object",
    required: [
      "id",
      "emailTrackingId",
      "status",
      "failureReason",
      "origin",
      "from",
      "replyTo",
      "to",
      "cc",
      "bcc",
      "subject",
      "campaignId",
      "metadata",
      "tags",
      "providerMessageId",
      "opens",
      "clicks",
      "createdAt",
      "sentAt",
    ],
    properties: {
      id: { type: "string", description: "MailPulse's id of the email." },
      emailTrackingId: { type: "string" },
      status: {
        enum: ["sending", "sent", "failed", "unknown"],
        description:
          "`unknown`: the server stopped while the provider had the message; it may have been delivered, and is counted and tracked like `sent`.",
      },
      failureReason: {
        type: ["string", "null"],
        description: "The provider's reason, for a `failed` email.",
      },
      origin: { enum: ["send", "register"] },
      from: { type: "string", description: "The sender actually used." },
      replyTo: { type: ["string", "null"] },
      to: { type: "array", items: { type: "string" } },
      cc: { type: "array", items: { type: "string" } },
      bcc: { type: "array", items: { type: "string" } },
      subject: { type: "string" },
      campaignId: { type: ["string", "null"] },
      metadata: { type: ["object", "null"] },
      tags: { $ref: "#/components/schemas/Tags" },
      providerMessageId: { type: ["string", "null"] },
      opens: { type: "integer", minimum: 0 },
      clicks: { type: "integer", minimum: 0 },
      createdAt: { type: "string", format: "date-time" },
      sentAt: { type: ["string", "null"], format: "date-time" },
    },
    additionalProperties: false,
  },
  RegisterEmailRequest: {
    type: "object",
    required: ["to", "subject", "htmlContent"],
    properties: {
      from: {
        $ref: "#/components/schemas/Mailbox",
        description: "The sender the caller uses; recorded only (MailPulse does not send).",
      },
      to: {
        $ref: "#/components/schemas/Recipients",
        description: "The recipient(s): each becomes a contact.",
      },
      subject: {
        $ref: "#/components/schemas/Subject",
      },
      htmlContent: {
        type: "string",
        minLength: 1,
        description: "The HTML body, before tracking is applied.",
      },
      campaignId: {
        $ref: "#/components/schemas/CampaignReference",
      },
      metadata: {
        $ref: "#/components/schemas/Metadata",
      },
      tags: {
        $ref: "#/components/schemas/Tags",
      },
      tracking: {
        $ref: "#/components/schemas/TrackingSwitches",
      },
    },
    additionalProperties: false,
  },
  TrackedLink: {
    type: "object",
    description: "A link of the email rewritten to a tracking URL; one per occurrence in the HTML.",
    required: ["originalUrl", "trackingId", "trackingUrl"],
    properties: {
      originalUrl: {
        type: "string",
        description: "The URL as written in `htmlContent`.",
      },
      trackingId: {
        type: "string",
        description: "The link's tracking id.",
      },
      trackingUrl: {
        type: "string",
        description: "`{base}/api/t/c/<trackingId>`: redirects to `originalUrl`.",
      },
    },
    additionalProperties: false,
  },
  SendEmailResult: {
    type: "object",
    required: ["id", "emailId", "emailTrackingId", "from", "to", "subject", "links", "pixelUrl"],
    properties: {
      id: {
        type: "string",
        description: "The delivery provider's id of the message.",
      },
      emailId: {
        type: "string",
        description:
          "MailPulse's id of the email: `GET /api/emails/{emailId}` reads it back, with its status.",
      },
      emailTrackingId: {
        type: "string",
        description: "The email's tracking id (in `pixelUrl`).",
      },
      from: {
        type: "string",
        description: "The sender actually used (after the sender rule).",
      },
      to: {
        type: "array",
        items: {
          type: "string",
        },
        description: "The recipients, as `Name <address>` or `address`.",
      },
      subject: {
        type: "string",
      },
      ...trackedContentProperties,
    },
    additionalProperties: false,
  },
  RegisterEmailResult: {
    type: "object",
    required: ["id", "emailTrackingId", "html", "links", "pixelUrl"],
    properties: {
      id: {
        type: "string",
        description: "MailPulse's id of the registered email.",
      },
      emailTrackingId: {
        type: "string",
        description: "The email's tracking id (in `pixelUrl`).",
      },
      html: {
        type: "string",
        description:
          "`htmlContent` with tracking applied: links rewritten to their tracking URLs and the pixel injected before `</body>` (or at the end). Send this as the email's HTML.",
      },
      ...trackedContentProperties,
    },
    additionalProperties: false,
  },
  CreateCampaignRequest: {
    type: "object",
    required: ["name"],
    properties: {
      name: {
        type: "string",
        minLength: 1,
        maxLength: 200,
        description: "Unique within the organization. Trimmed; 1 to 200 characters.",
      },
    },
  },
  Campaign: {
    type: "object",
    required: ["id", "name", "createdAt"],
    properties: {
      id: {
        type: "string",
      },
      name: {
        type: "string",
        description: "Unique within the organization.",
      },
      createdAt: {
        type: "string",
        format: "date-time",
      },
    },
    additionalProperties: false,
  },
  CampaignList: {
    type: "object",
    required: ["campaigns"],
    properties: {
      campaigns: {
        type: "array",
        items: {
          $ref: "#/components/schemas/Campaign",
        },
      },
    },
    additionalProperties: false,
  },
  LinkClicks: {
    type: "object",
    required: ["url", "clicks"],
    properties: {
      url: {
        type: "string",
      },
      clicks: {
        type: "integer",
        minimum: 0,
        description: "Click events on this URL.",
      },
    },
    additionalProperties: false,
  },
  CampaignEmail: {
    type: "object",
    required: ["id", "trackingId", "recipient", "subject", "createdAt", "opens", "clicks"],
    properties: {
      id: {
        type: "string",
        description: "The email's id.",
      },
      trackingId: {
        type: "string",
        description: "The email's tracking id.",
      },
      recipient: {
        type: "string",
        description: "The first `to` address.",
      },
      subject: {
        type: "string",
      },
      createdAt: {
        type: "string",
        format: "date-time",
      },
      opens: {
        type: "integer",
        minimum: 0,
        description: "Open events.",
      },
      clicks: {
        type: "integer",
        minimum: 0,
        description: "Click events.",
      },
    },
    additionalProperties: false,
  },
  CampaignDetail: {
    type: "object",
    required: ["id", "name", "createdAt", "stats", "links", "emails"],
    properties: {
      id: {
        type: "string",
      },
      name: {
        type: "string",
      },
      createdAt: {
        type: "string",
        format: "date-time",
      },
      stats: {
        type: "object",
        description:
          "All-time totals over the campaign's sent emails. Rates are percentages rounded to two decimals.",
        required: ["totalEmails", "totalOpens", "totalClicks", "openRate", "clickRate", "human"],
        properties: {
          totalEmails: {
            type: "integer",
            minimum: 0,
            description: "Emails sent.",
          },
          totalOpens: {
            type: "integer",
            minimum: 0,
            description: "Open events.",
          },
          totalClicks: {
            type: "integer",
            minimum: 0,
            description: "Click events.",
          },
          openRate: {
            type: "number",
            minimum: 0,
            maximum: 100,
            description: "Emails opened (an open or a click) / emails x 100.",
          },
          clickRate: {
            type: "number",
            minimum: 0,
            maximum: 100,
            description: "Emails with a click / emails x 100.",
          },
          human: detailHumanStats,
        },
        additionalProperties: false,
      },
      links: {
        type: "array",
        items: {
          $ref: "#/components/schemas/LinkClicks",
        },
        description:
          "The campaign's 500 most clicked tracked URLs (`campaignDetailLinkLimit`), most clicked first, then by URL. `GET /campaigns/{id}/links` pages through all of them.",
      },
      emails: {
        type: "array",
        items: {
          $ref: "#/components/schemas/CampaignEmail",
        },
        description:
          "The campaign's most recent emails, newest first (at most the instance's `campaignDetailEmailLimit`, default 500).",
      },
    },
    additionalProperties: false,
  },
  DailyActivity: {
    type: "object",
    required: ["date", "opens", "clicks", "emails", "humanOpens", "humanClicks"],
    properties: {
      date: {
        type: "string",
        format: "date",
        description: "`YYYY-MM-DD` (UTC).",
      },
      opens: {
        type: "integer",
        minimum: 0,
        description: "Open events that day.",
      },
      clicks: {
        type: "integer",
        minimum: 0,
        description: "Click events that day.",
      },
      emails: {
        type: "integer",
        minimum: 0,
        description: "Emails sent that day.",
      },
      humanOpens: countOf("Open events that day judged human (docs/measurement.md)."),
      humanClicks: countOf("Click events that day judged human."),
    },
    additionalProperties: false,
  },
  CampaignPeriodStats: {
    type: "object",
    required: ["campaign", "period", "stats", "openAndClicks", "topLinks"],
    properties: {
      campaign: {
        $ref: "#/components/schemas/Campaign",
      },
      period: {
        type: "object",
        required: ["start", "end"],
        properties: {
          start: {
            type: "string",
            format: "date-time",
            description: "00:00:00.000Z of the first day.",
          },
          end: {
            type: "string",
            format: "date-time",
            description: "Now for `7d`/`30d`/`90d`; the last millisecond of the last day for a range.",
          },
        },
        additionalProperties: false,
      },
      stats: {
        type: "object",
        description: "Rates are percentages rounded to two decimals (0 when the divisor is 0).",
        required: [
          "totalEmails",
          "totalOpens",
          "totalClicks",
          "openRate",
          "clickThroughRate",
          "uniqueRecipients",
          "noInteraction",
          "human",
        ],
        properties: {
          totalEmails: {
            type: "integer",
            minimum: 0,
            description: "Emails sent in the period.",
          },
          totalOpens: {
            type: "integer",
            minimum: 0,
            description: "Open events in the period.",
          },
          totalClicks: {
            type: "integer",
            minimum: 0,
            description: "Click events in the period.",
          },
          openRate: {
            type: "number",
            minimum: 0,
            maximum: 100,
            description: "Opened emails sent in the period / emails sent in the period x 100.",
          },
          clickThroughRate: {
            type: "number",
            minimum: 0,
            description: "Click events / open events x 100 (0 without opens; may exceed 100).",
          },
          uniqueRecipients: {
            type: "integer",
            minimum: 0,
            description: "Distinct `to` addresses of the period's emails.",
          },
          noInteraction: {
            type: "integer",
            minimum: 0,
            description: "Emails sent in the period with no open and no click.",
          },
          human: periodHumanStats,
        },
        additionalProperties: false,
      },
      openAndClicks: {
        type: "array",
        items: {
          $ref: "#/components/schemas/DailyActivity",
        },
        description: "One entry per UTC day of the period, oldest first, zero-filled.",
      },
      topLinks: {
        type: "array",
        items: {
          $ref: "#/components/schemas/LinkClicks",
        },
        maxItems: 10,
        description: "The 10 most clicked URLs in the period.",
      },
    },
    additionalProperties: false,
  },
  GlobalStats: {
    type: "object",
    required: ["totalEmails", "totalOpens", "totalClicks", "openRate", "clickRate", "human"],
    properties: {
      totalEmails: {
        type: "integer",
        minimum: 0,
        description: "Emails sent (or registered).",
      },
      totalOpens: {
        type: "integer",
        minimum: 0,
        description: "Open events.",
      },
      totalClicks: {
        type: "integer",
        minimum: 0,
        description: "Click events.",
      },
      openRate: {
        type: "number",
        minimum: 0,
        maximum: 100,
        description: "Emails opened (an open or a click) / emails x 100, two decimals.",
      },
      clickRate: {
        type: "number",
        minimum: 0,
        maximum: 100,
        description: "Emails with a click / emails x 100, two decimals.",
      },
      human: globalHumanStats,
    },
    additionalProperties: false,
  },
  ContactSummary: {
    type: "object",
    required: [
      "email",
      "totalEmails",
      "totalOpens",
      "totalClicks",
      "campaigns",
      "engagementScore",
      "lastActivity",
      "humanOpens",
      "humanClicks",
      "humanEngagementScore",
    ],
    properties: {
      ...contactSummaryProperties,
    },
    additionalProperties: false,
  },
  ContactTimelineEvent: {
    type: "object",
    required: ["type", "timestamp", "subject"],
    properties: {
      type: {
        type: "string",
        enum: ["sent", "opened", "clicked"],
      },
      timestamp: {
        type: "string",
        format: "date-time",
      },
      subject: {
        type: "string",
        description: "The email's subject.",
      },
      campaign: {
        type: "string",
        description: "The campaign's name; present when the email belongs to one.",
      },
      link: {
        type: "string",
        description: "The clicked URL; present on `clicked` only.",
      },
      machine: {
        type: "boolean",
        description:
          "On `opened` and `clicked`: true when a program (Apple's privacy prefetch, a security scanner, a bot) made it (docs/measurement.md).",
      },
      source: {
        type: "string",
        enum: ["apple_privacy", "image_proxy", "security_scanner", "bot", "human"],
        description: "On `opened` and `clicked`: who made it.",
      },
    },
    additionalProperties: false,
  },
  ContactDetail: {
    type: "object",
    required: [
      "email",
      "totalEmails",
      "totalOpens",
      "totalClicks",
      "campaigns",
      "engagementScore",
      "lastActivity",
      "humanOpens",
      "humanClicks",
      "humanEngagementScore",
      "firstSeen",
      "openRate",
      "clickRate",
      "timeline",
    ],
    properties: {
      ...contactSummaryProperties,
      firstSeen: {
        type: "string",
        format: "date-time",
        description: "When the first email to the contact was sent.",
      },
      openRate: {
        type: "number",
        minimum: 0,
        description: "Open events per email: a ratio (not a percentage), four decimals.",
      },
      clickRate: {
        type: "number",
        minimum: 0,
        description: "Click events per email: a ratio (not a percentage), four decimals.",
      },
      timeline: {
        type: "array",
        items: {
          $ref: "#/components/schemas/ContactTimelineEvent",
        },
        maxItems: 100,
        description: "The contact's sends, opens and clicks, newest first, at most 100.",
      },
    },
    additionalProperties: false,
  },
  DomainRequest: {
    type: "object",
    required: ["domain"],
    properties: {
      domain: {
        type: "string",
        description:
          "A domain name: at least two labels of letters, digits and hyphens; not an IP address or localhost. Internationalised names are accepted and stored in punycode.",
      },
    },
  },
  VerifySendingDomainRequest: {
    type: "object",
    required: ["domainId"],
    properties: {
      domainId: {
        type: "string",
        minLength: 1,
      },
    },
  },
  DnsRecord: {
    type: "object",
    required: ["type", "name", "value", "status"],
    properties: {
      type: {
        enum: ["MX", "TXT", "CNAME"],
      },
      name: {
        type: "string",
        description: "The host name to publish the record at.",
      },
      value: {
        type: "string",
      },
      status: {
        enum: ["not_started", "verified", "failed"],
      },
      priority: {
        type: "integer",
        description: "MX only.",
      },
      error: {
        type: "string",
        description: "When `failed`: what DNS answered, e.g. `no CNAME at mailpulse._domainkey.acme.com`.",
      },
    },
    additionalProperties: false,
  },
  SendingDomain: {
    type: "object",
    required: ["id", "domain", "status", "records", "createdAt"],
    properties: {
      ...sendingDomainProperties,
    },
    additionalProperties: false,
  },
  SendingDomainList: {
    type: "object",
    required: ["domains"],
    properties: {
      domains: {
        type: "array",
        items: {
          $ref: "#/components/schemas/SendingDomain",
        },
      },
    },
    additionalProperties: false,
  },
  SendingDomainVerification: {
    type: "object",
    required: ["id", "domain", "status", "records", "createdAt", "verified"],
    properties: {
      ...sendingDomainProperties,
      verified: {
        type: "boolean",
      },
    },
    additionalProperties: false,
  },
  TrackingDomain: {
    type: "object",
    required: ["customDomain", "domainVerified", "domainVerifiedAt", "expectedCNAME"],
    properties: {
      customDomain: {
        type: ["string", "null"],
      },
      domainVerified: {
        type: "boolean",
      },
      domainVerifiedAt: {
        anyOf: [
          {
            type: "string",
            format: "date-time",
          },
          {
            type: "null",
          },
        ],
      },
      expectedCNAME: {
        type: "string",
        description: "The CNAME target, `track.<platform domain>` by default.",
      },
    },
    additionalProperties: false,
  },
  TrackingDomainSet: {
    type: "object",
    required: ["customDomain", "domainVerified"],
    properties: {
      customDomain: {
        type: "string",
      },
      domainVerified: {
        const: false,
      },
    },
    additionalProperties: false,
  },
  TrackingDomainVerification: {
    oneOf: [
      {
        type: "object",
        required: ["verified", "domainVerifiedAt"],
        properties: {
          verified: {
            const: true,
          },
          domainVerifiedAt: {
            type: "string",
            format: "date-time",
          },
        },
        additionalProperties: false,
      },
      {
        type: "object",
        required: ["verified", "error"],
        properties: {
          verified: {
            const: false,
          },
          error: {
            type: "string",
            description:
              "e.g. `no CNAME record at track.acme.com: add one pointing to track.<platform domain>`, `found CNAME other.example at track.acme.com, expected ...`",
          },
        },
        additionalProperties: false,
      },
    ],
  },
  ...webhookSchemas,
};
