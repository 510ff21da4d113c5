import type { BounceType, RecipientAction } from "./returned-mail-verdict.js";

/**
 * The rule that turns one recipient's report into a bounce type. It reads the whole enhanced
 * status (RFC 3463), not only its class: a full mailbox (x.2.2) is a persistent transient failure
 * even when a server sends it as 552/5.2.2 (SES and Postmark count it soft too), and a message
 * that failed because its retries ran out (x.4.7, "retry timeout exceeded") was only ever
 * rejected temporarily. docs/deliverability.md has the same rules as a table.
 */

/** What the rule reads about one recipient. */
export interface StatusFacts {
  action: RecipientAction;
  /** The enhanced status code such as `5.1.1`, or null. */
  status: string | null;
  /** The SMTP reply code such as 550, or null. */
  smtpCode: number | null;
  /** Whatever text the report gives about this recipient (diagnostic, notice paragraph). */
  text: string;
}

/** The rule's answer. */
export interface StatusJudgement {
  bounceType: BounceType;
  reasons: string[];
}

const mailboxFullText =
  /mailbox\b[^\n]{0,80}?\bfull\b|over (the )?(allowed )?quota|quota exceeded|exceeded (the |their |its )?(storage|quota)|insufficient (system )?storage|mailbox (size|storage) limit/i;
const retryTimeoutText =
  /retry time(out)? (was )?(exceeded|not met)|message expired|delivery time expired|could not be delivered (for|within) \d+|too long in (the )?queue|maximum (queue|delivery) (time|lifetime)/i;

/** Judges one recipient's outcome. */
export function judgeStatus(facts: StatusFacts): StatusJudgement {
  if (facts.action !== "failed") {
    return {
      bounceType: "none",
      reasons: [
        facts.action === "delayed"
          ? "The message is delayed, not refused: the server keeps trying, so this is recorded, not counted as a bounce."
          : `The report says "${facts.action}": the message got through, so this is not a bounce.`,
      ],
    };
  }
  const status = facts.status;
  const detail = status ? status.slice(status.indexOf(".")) : null;
  if (detail === ".2.2" || mailboxFullText.test(facts.text)) {
    return {
      bounceType: "soft",
      reasons: [
        `The mailbox is full${status ? ` (${status})` : ""}: RFC 3463 calls this a persistent transient failure, so it is soft even when sent as a permanent error.`,
      ],
    };
  }
  if (detail === ".4.7" || retryTimeoutText.test(facts.text)) {
    return {
      bounceType: "soft",
      reasons: [
        `Delivery gave up after its retries ran out${status ? ` (${status})` : ""}: every attempt was rejected only temporarily, so it is soft.`,
      ],
    };
  }
  const statusClass = status?.[0] ?? classOfReply(facts.smtpCode);
  if (statusClass === "5") {
    return {
      bounceType: "hard",
      reasons: [
        status
          ? `Permanent failure ${status}${facts.smtpCode ? ` (SMTP ${facts.smtpCode})` : ""}.`
          : `Permanent SMTP reply ${facts.smtpCode}.`,
      ],
    };
  }
  if (statusClass === "4") {
    return {
      bounceType: "soft",
      reasons: [
        status
          ? `Temporary failure ${status}: the address may work later.`
          : `Temporary SMTP reply ${facts.smtpCode}: the address may work later.`,
      ],
    };
  }
  return {
    bounceType: "soft",
    reasons: [
      status
        ? `The delivery failed with status ${status}, which is not a failure code; counted soft so an unclear report never suppresses an address at once.`
        : "The delivery failed without a status code; counted soft so an unclear report never suppresses an address at once.",
    ],
  };
}

function classOfReply(code: number | null): string | null {
  return code === null ? null : String(code)[0]!;
}

const enhancedStatus = /(?:^|[\s#([;:"'-])([245])\.(\d{1,3})\.(\d{1,3})(?![.\d])/;
const smtpReply = /(?:^|[\s#(:;"'])([45][0-5]\d)(?:[ :-]|$)/m;

/** The first enhanced status code (`5.1.1`) in `text`, or null. Avoids IP addresses and versions. */
export function findEnhancedStatus(text: string): string | null {
  const match = enhancedStatus.exec(text);
  return match ? `${match[1]}.${Number(match[2])}.${Number(match[3])}` : null;
}

/** The first SMTP reply code (a 4xx or 5xx followed by a space, a dash or a colon) in `text`, or null. */
export function findSmtpReply(text: string): number | null {
  const match = smtpReply.exec(text);
  return match ? Number(match[1]) : null;
}
