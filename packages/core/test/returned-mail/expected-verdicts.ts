import type {
  AttributionSource,
  BounceType,
  ClassifyReturnedMailOptions,
  RecipientAction,
  ReturnedMailKind,
} from "../../src/returned-mail/returned-mail-verdict.js";

/**
 * The expected verdict of every message in test/fixtures/returned-mail/, written from the RFCs
 * and from what Postfix, Exim, Sendmail, qmail, Exchange/Office 365, Gmail, Yahoo and Outlook.com
 * send. Only what a user of the verdict acts on is listed: the kind, each recipient's outcome and
 * the attribution.
 */

/** One recipient of a bounce: [recipient, action, bounceType, status, smtpCode]. */
export type ExpectedRecipient = [string | null, RecipientAction, BounceType, string | null, number | null];

/** The attribution: [messageId, trackingId, source]. */
export type ExpectedAttribution = [string | null, string | null, AttributionSource | null];

/** What one fixture must classify as. */
export interface ExpectedVerdict {
  kind: ReturnedMailKind;
  options?: ClassifyReturnedMailOptions;
  recipients?: ExpectedRecipient[];
  format?: "dsn" | "text";
  attribution?: ExpectedAttribution;
  feedbackType?: string;
  /** The complaining recipient (null: redacted). */
  complainant?: string | null;
  autoReplyType?: "vacation" | "challenge-response" | "auto-generated";
  disposition?: string;
  originalMessageId?: string;
  inReplyTo?: string | null;
}

const t = [
  "Q2FtcGFpZ25FbWFpbDAwMQ",
  "dHJhY2tpbmdJZDAwMDAwMg",
  "VHJhY2tJZC1OdW1iZXItMw",
  "ZW1haWwtNC1fLWEtYi1j",
  "NWZpdmUtdHJhY2tpbmctaWQ",
] as const;
const headers = "text/rfc822-headers" as const;
const rfc822 = "message/rfc822" as const;
const quoted = "quoted-text" as const;

export const expectedVerdicts: Record<string, ExpectedVerdict> = {
  // Postfix
  "postfix-user-unknown.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["nobody@remote.example", "failed", "hard", "5.1.1", 550]],
    attribution: ["<sale-1@acme.example>", t[0], headers],
  },
  "postfix-mailbox-full-552.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["full@remote.example", "failed", "soft", "5.2.2", 552]],
    attribution: ["<sale-2@acme.example>", t[1], rfc822],
  },
  "postfix-delayed.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["slow@remote.example", "delayed", "none", "4.4.1", 421]],
    attribution: ["<sale-1@acme.example>", t[0], headers],
  },
  "postfix-expired-4-4-7.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["gone-away@remote.example", "failed", "soft", "4.4.7", 450]],
    attribution: ["<sale-3@acme.example>", t[2], headers],
  },
  "postfix-temporary-failed-4xx.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["tempfail@remote.example", "failed", "soft", "4.7.0", 421]],
    attribution: ["<sale-1@acme.example>", t[0], headers],
  },
  "postfix-policy-5-7-1.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["strict@remote.example", "failed", "hard", "5.7.1", 554]],
    attribution: ["<sale-1@acme.example>", t[0], headers],
  },
  "postfix-multi-recipient-mixed.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [
      ["ann@remote.example", "failed", "hard", "5.1.1", 550],
      ["bob@remote.example", "failed", "soft", "5.2.2", 552],
      ["cy@other.example", "delayed", "none", "4.4.1", 451],
      ["dee@other.example", "failed", "soft", "4.3.0", 451],
    ],
    attribution: ["<sale-4@acme.example>", t[3], headers],
  },
  // Exim
  "exim-user-unknown.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["nouser@exim-dest.example", "failed", "hard", "5.0.0", 550]],
    attribution: ["<exim-1@acme.example>", t[0], rfc822],
  },
  "exim-retry-timeout.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["flaky@exim-dest.example", "failed", "soft", "5.0.0", null]],
    attribution: ["<exim-2@acme.example>", t[1], rfc822],
  },
  "exim-plain-text-failed.eml": {
    kind: "bounce",
    format: "text",
    recipients: [["olduser@old-dest.example", "failed", "hard", "5.1.1", 550]],
    attribution: ["<exim-3@acme.example>", t[2], quoted],
  },
  // Sendmail
  "sendmail-user-unknown.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["ghost@sm-dest.example", "failed", "hard", "5.1.1", 550]],
    attribution: ["<sm-1@acme.example>", t[3], rfc822],
  },
  "sendmail-delayed-warning.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["later@sm-dest.example", "delayed", "none", "4.4.7", 451]],
    attribution: ["<sm-2@acme.example>", t[4], rfc822],
  },
  "sendmail-expired-5-days.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["never@sm-dest.example", "failed", "soft", "4.4.7", 451]],
    attribution: ["<sm-3@acme.example>", t[0], rfc822],
  },
  // qmail: no delivery-status part
  "qmail-user-unknown.eml": {
    kind: "bounce",
    format: "text",
    recipients: [["missing@q-dest.example", "failed", "hard", "5.1.1", 550]],
    attribution: ["<q-1@acme.example>", t[1], quoted],
  },
  "qmail-mailbox-full.eml": {
    kind: "bounce",
    format: "text",
    recipients: [["stuffed@q-dest.example", "failed", "soft", null, 552]],
    attribution: ["<q-2@acme.example>", t[2], quoted],
  },
  "qmail-multi-recipient.eml": {
    kind: "bounce",
    format: "text",
    recipients: [
      ["nobody@q-local.example", "failed", "hard", "5.1.1", null],
      ["quota@q-local.example", "failed", "soft", "5.2.2", null],
      ["nohost@nowhere.invalid", "failed", "hard", "5.1.2", null],
    ],
    attribution: ["<q-3@acme.example>", t[3], quoted],
  },
  // Exchange / Office 365
  "exchange-o365-recipient-not-found.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["jdoe@contoso.com", "failed", "hard", "5.1.10", 550]],
    attribution: ["<ex-1@acme.example>", t[4], headers],
  },
  "exchange-o365-quota-exceeded.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["busy@contoso.com", "failed", "soft", "5.2.2", 554]],
    attribution: ["<ex-2@acme.example>", t[0], headers],
  },
  "exchange-legacy-plain-ndr.eml": {
    kind: "bounce",
    format: "text",
    recipients: [["former.employee@legacy-corp.example", "failed", "hard", "5.1.1", 550]],
    attribution: ["<ex-3@acme.example>", t[1], quoted],
  },
  // Gmail
  "gmail-address-not-found.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["no.such.user@gmail.com", "failed", "hard", "5.1.1", 550]],
    attribution: ["<gm-1@acme.example>", t[2], rfc822],
  },
  "gmail-over-quota.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["packed@gmail.com", "failed", "soft", "4.2.2", 452]],
    attribution: ["<gm-2@acme.example>", t[3], rfc822],
  },
  "gmail-delayed.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["later@slow-dest.example", "delayed", "none", "4.4.1", 421]],
    attribution: ["<gm-3@acme.example>", t[4], rfc822],
  },
  // Yahoo
  "yahoo-plain-text-no-account.eml": {
    kind: "bounce",
    format: "text",
    recipients: [["nobody123@yahoo.com", "failed", "hard", null, 554]],
    attribution: ["<yh-1@acme.example>", t[0], quoted],
  },
  "yahoo-dsn-mailbox-disabled.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["dormant@yahoo.com", "failed", "hard", "5.0.0", 554]],
    attribution: ["<yh-2@acme.example>", t[1], headers],
  },
  // Outlook.com
  "outlookcom-mailbox-unavailable.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["closed.account@outlook.com", "failed", "hard", "5.5.0", 550]],
    attribution: ["<ol-1@acme.example>", t[2], headers],
  },
  // Other DSN shapes
  "dsn-success-delivered.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["happy@remote.example", "delivered", "none", "2.0.0", null]],
    attribution: ["<ok-1@acme.example>", t[3], headers],
  },
  "dsn-relayed-and-expanded.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [
      ["legacy@remote.example", "relayed", "none", "2.0.0", null],
      ["team@remote.example", "expanded", "none", "2.0.0", null],
    ],
    attribution: ["<ok-2@acme.example>", t[4], headers],
  },
  "dsn-no-action-field.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["who@odd-dest.example", "failed", "hard", "5.1.1", 550]],
    attribution: ["<odd-1@acme.example>", t[0], headers],
  },
  "dsn-no-final-recipient.eml": {
    kind: "bounce",
    format: "dsn",
    options: { envelopeRecipientHint: "hinted@odd-dest.example" },
    recipients: [["hinted@odd-dest.example", "failed", "hard", "5.1.1", 550]],
    attribution: [null, null, null],
  },
  "dsn-base64-delivery-status.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["encoded@b64-dest.example", "failed", "hard", "5.1.1", 550]],
    attribution: ["<b64-1@acme.example>", t[1], rfc822],
  },
  "dsn-global-utf8.eml": {
    kind: "bounce",
    format: "dsn",
    recipients: [["jürgen@intl-dest.example", "failed", "hard", "5.1.1", 550]],
    attribution: ["<intl-1@acme.example>", t[2], headers],
  },
  "gateway-notice-no-recipient.eml": {
    kind: "bounce",
    format: "text",
    options: { envelopeRecipientHint: "hinted@gateway.corp.example" },
    recipients: [["hinted@gateway.corp.example", "failed", "hard", null, 550]],
    attribution: [null, null, null],
  },
  // ARF complaints
  "arf-yahoo-cfl.eml": {
    kind: "complaint",
    feedbackType: "abuse",
    complainant: "annoyed@yahoo.com",
    attribution: ["<cmp-1@acme.example>", t[0], rfc822],
  },
  "arf-outlook-jmrp.eml": {
    kind: "complaint",
    feedbackType: "abuse",
    complainant: "complainer@outlook.com",
    attribution: ["<cmp-2@acme.example>", t[1], rfc822],
  },
  "arf-redacted-recipient.eml": {
    kind: "complaint",
    feedbackType: "abuse",
    complainant: null,
    attribution: ["<cmp-3@acme.example>", t[2], rfc822],
  },
  "arf-rfc5965-headers-only.eml": {
    kind: "complaint",
    feedbackType: "abuse",
    complainant: "user@example.com",
    attribution: ["<8787KJKJ3K4J3K4J3K4J3.mail@example.net>", t[3], headers],
  },
  "arf-fraud.eml": {
    kind: "complaint",
    feedbackType: "fraud",
    complainant: "customer@bank-user.example",
    attribution: ["<cmp-5@acme.example>", t[4], rfc822],
  },
  // Auto-replies
  "auto-reply-rfc3834-ticket.eml": { kind: "auto-reply", autoReplyType: "auto-generated" },
  "auto-reply-outlook-ooo.eml": { kind: "auto-reply", autoReplyType: "vacation" },
  "auto-reply-gmail-vacation.eml": { kind: "auto-reply", autoReplyType: "vacation" },
  "auto-reply-unix-vacation.eml": { kind: "auto-reply", autoReplyType: "vacation" },
  "auto-reply-german-abwesenheit.eml": { kind: "auto-reply", autoReplyType: "vacation" },
  "auto-reply-x-autoreply-generic.eml": { kind: "auto-reply", autoReplyType: "auto-generated" },
  "challenge-response-spamarrest.eml": { kind: "auto-reply", autoReplyType: "challenge-response" },
  "challenge-response-approved-list.eml": { kind: "auto-reply", autoReplyType: "challenge-response" },
  // Read receipts
  "mdn-rfc8098-displayed.eml": {
    kind: "read-receipt",
    disposition: "displayed",
    originalMessageId: "<sale-1@acme.example>",
  },
  "mdn-outlook-read.eml": {
    kind: "read-receipt",
    disposition: "displayed",
    originalMessageId: "<sale-2@acme.example>",
  },
  "mdn-deleted-unread.eml": {
    kind: "read-receipt",
    disposition: "deleted",
    originalMessageId: "<sale-3@acme.example>",
  },
  // Replies people wrote
  "human-reply-plain.eml": { kind: "human-reply", inReplyTo: "<sale-1@acme.example>" },
  "human-reply-html-gmail.eml": { kind: "human-reply", inReplyTo: "<sale-1@acme.example>" },
  "human-reply-unsubscribe-request.eml": { kind: "human-reply", inReplyTo: "<sale-1@acme.example>" },
  "human-reply-forwarded-bounce-discussion.eml": { kind: "human-reply", inReplyTo: "<sale-1@acme.example>" },
  // Malformed
  "malformed-no-header.eml": { kind: "malformed" },
  "malformed-binary-garbage.eml": { kind: "malformed" },
  "malformed-no-from.eml": { kind: "malformed" },
  "malformed-deep-nesting.eml": { kind: "malformed" },
  "malformed-truncated-report.eml": { kind: "malformed" },
};
