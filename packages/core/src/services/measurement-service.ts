import { classifyHistory } from "../measurement/classify-hit.js";
import type { ClassificationOptions, HitSignals, HitVerdict } from "../measurement/hit-verdict.js";
import type { EmailWithHits, StoredHit, VerdictRevision } from "../ports/storage.js";
import type { ServiceDeps } from "./service-context.js";

/** What a re-classification changed. */
export interface ReclassifySummary {
  /** Emails whose hits were judged again. */
  emails: number;
  /** Hits judged again. */
  hits: number;
  /** Hits whose verdict (machine, source or reasons) changed. */
  changed: number;
  /** Of those, hits that moved between machine and human (the human figures moved with them). */
  flipped: number;
}

/** Options of one email's re-classification. */
export interface ReclassifyEmailOptions {
  /**
   * Only turn human verdicts into machine ones (what a revision at arrival does: a pattern that
   * later hits revealed). Default false: every changed verdict is stored.
   */
  onlyToMachine?: boolean;
}

/** Judges stored hits again with the current rules (docs/measurement.md). */
export interface MeasurementService {
  /** Judges one email's hits again, on its whole history, and stores what changed. */
  reclassifyEmail(
    organizationId: string,
    emailId: string,
    options?: ReclassifyEmailOptions,
  ): Promise<ReclassifySummary>;
  /**
   * Judges every hit again, email by email, of one organization or of all of them (undefined):
   * after the rules changed (a MailPulse upgrade, your own rules). `onProgress` is called after
   * each page of emails with the running totals.
   */
  reclassifyHistory(
    organizationId: string | undefined,
    onProgress?: (summary: ReclassifySummary) => void,
  ): Promise<ReclassifySummary>;
}

/** Emails read per page while walking history. */
const emailPage = 200;

function signalsOf(hit: StoredHit): HitSignals {
  return {
    type: hit.type,
    method: hit.method,
    userAgent: hit.userAgent,
    ip: hit.ip,
    at: hit.occurredAt.getTime(),
    msSinceSent: hit.msSinceSent,
    linkId: hit.linkId,
  };
}

function sameVerdict(a: HitVerdict, b: HitVerdict): boolean {
  return (
    a.machine === b.machine &&
    a.source === b.source &&
    a.reasons.length === b.reasons.length &&
    a.reasons.every((reason, index) => reason === b.reasons[index])
  );
}

/** Builds the {@link MeasurementService}. */
export function createMeasurementService(
  deps: ServiceDeps,
  classification: ClassificationOptions,
): MeasurementService {
  const { storage } = deps;

  async function reclassifyEmail(
    organizationId: string,
    emailId: string,
    options: ReclassifyEmailOptions = {},
  ): Promise<ReclassifySummary> {
    const hits = await storage.verdicts.hitsOfEmail(organizationId, emailId);
    const verdicts = classifyHistory(hits.map(signalsOf), classification);
    const revisions: VerdictRevision[] = [];
    hits.forEach((hit, index) => {
      const verdict = verdicts[index]!;
      if (sameVerdict(hit.verdict, verdict)) return;
      if (options.onlyToMachine && (hit.verdict.machine || !verdict.machine)) return;
      revisions.push({ eventId: hit.eventId, verdict });
    });
    const flipped = await storage.verdicts.reviseVerdicts(organizationId, emailId, revisions);
    return { emails: 1, hits: hits.length, changed: revisions.length, flipped };
  }

  return {
    reclassifyEmail,
    async reclassifyHistory(organizationId, onProgress) {
      const total: ReclassifySummary = { emails: 0, hits: 0, changed: 0, flipped: 0 };
      let after: EmailWithHits | undefined;
      for (;;) {
        const page = await storage.verdicts.emailsWithHits(organizationId, after, emailPage);
        for (const email of page) {
          const one = await reclassifyEmail(email.organizationId, email.emailId);
          total.emails += one.emails;
          total.hits += one.hits;
          total.changed += one.changed;
          total.flipped += one.flipped;
        }
        onProgress?.({ ...total });
        if (page.length < emailPage) return total;
        after = page.at(-1);
      }
    },
  };
}
