import { type Kysely, type Selectable, sql } from "kysely";
import type {
  EmailRecipientRecord,
  EmailRecord,
  EmailStore,
  EmailTagRecord,
  NewEmailRecord,
  SentMark,
  SuppressedRecipientRecord,
} from "../../ports/storage.js";
import type { MailPulseDialect } from "../dialect.js";
import { toCount, toDate, toDateOrNull } from "../mappers.js";
import { retryOnLockConflict } from "../retry-on-lock-conflict.js";
import { bumpDailyStat, countSentForContacts, logSentEvent } from "../rollups.js";
import type { EmailTable, MailPulseDatabase } from "../schema.js";

function toEmailRecord(
  row: Selectable<EmailTable>,
  recipients: EmailRecipientRecord[],
  tags: EmailTagRecord[],
): EmailRecord {
  return {
    id: row.id,
    recipients,
    tags,
    organizationId: row.organization_id,
    campaignId: row.campaign_id,
    trackingId: row.tracking_id,
    origin: row.origin,
    fromAddress: row.from_address,
    sender: row.sender,
    replyTo: row.reply_to,
    subject: row.subject,
    metadata: row.metadata,
    trackOpens: row.track_opens === 1,
    trackClicks: row.track_clicks === 1,
    createdAt: toDate(row.created_at),
    status: row.status,
    providerMessageId: row.provider_message_id,
    failureReason: row.failure_reason,
    sentAt: toDateOrNull(row.sent_at),
    openCount: toCount(row.open_count),
    clickCount: toCount(row.click_count),
    suppressedRecipients:
      row.suppressed_recipients === null
        ? []
        : (JSON.parse(row.suppressed_recipients) as SuppressedRecipientRecord[]),
  };
}

/** {@link EmailStore} on Kysely. */
export function createEmailStore(
  db: Kysely<MailPulseDatabase>,
  dialect: MailPulseDialect,
  schema: string | undefined,
): EmailStore {
  /** Counts a just-sent email in the rollups and queues its event (inside `trx`). */
  async function applySent(
    trx: Kysely<MailPulseDatabase>,
    email: { organizationId: string; campaignId: string | null; id: string },
    mark: SentMark,
  ): Promise<void> {
    const sentAt = mark.sentAt.getTime();
    const to = await trx
      .selectFrom("mailpulse_email_recipient")
      .select("address")
      .where("email_id", "=", email.id)
      .where("kind", "=", "to")
      .execute();
    await countSentForContacts(
      trx,
      email.organizationId,
      to.map((row) => row.address),
      sentAt,
    );
    await bumpDailyStat(
      trx,
      { organizationId: email.organizationId, campaignId: email.campaignId, at: sentAt },
      { emails: 1 },
    );
    if (mark.logSentEvent) await logSentEvent(trx, email, sentAt);
  }

  async function insertEmail(
    trx: Kysely<MailPulseDatabase>,
    email: NewEmailRecord,
    sent: SentMark | undefined,
    suppressedBecause?: string,
  ) {
    const firstTo = email.recipients.find((recipient) => recipient.kind === "to");
    if (!firstTo) throw new Error("An email needs at least one `to` recipient");
    const createdAt = email.createdAt.getTime();
    await trx
      .insertInto("mailpulse_email")
      .values({
        id: email.id,
        organization_id: email.organizationId,
        campaign_id: email.campaignId,
        tracking_id: email.trackingId,
        status: suppressedBecause !== undefined ? "suppressed" : sent ? "sent" : "sending",
        origin: email.origin,
        provider_message_id: sent?.providerMessageId ?? null,
        from_address: email.fromAddress,
        sender: email.sender,
        reply_to: email.replyTo,
        subject: email.subject,
        recipient: firstTo.address,
        metadata: email.metadata,
        track_opens: email.trackOpens ? 1 : 0,
        track_clicks: email.trackClicks ? 1 : 0,
        first_opened_at: null,
        first_clicked_at: null,
        failure_reason: suppressedBecause?.slice(0, 1000) ?? null,
        created_at: createdAt,
        sent_at: sent ? sent.sentAt.getTime() : null,
        suppressed_recipients: email.suppressedRecipients?.length
          ? JSON.stringify(
              email.suppressedRecipients.map(({ kind, address, reason }) => ({ kind, address, reason })),
            )
          : null,
      })
      .execute();
    const positions = { to: 0, cc: 0, bcc: 0 };
    await trx
      .insertInto("mailpulse_email_recipient")
      .values(
        email.recipients.map((recipient) => ({
          email_id: email.id,
          organization_id: email.organizationId,
          kind: recipient.kind,
          position: positions[recipient.kind]++,
          address: recipient.address,
          display: recipient.display,
        })),
      )
      .execute();
    const tags = email.tags ?? [];
    if (tags.length > 0) {
      await trx
        .insertInto("mailpulse_email_tag")
        .values(
          tags.map((tag, position) => ({
            email_id: email.id,
            organization_id: email.organizationId,
            position,
            name: tag.name,
            value: tag.value,
          })),
        )
        .execute();
    }
    // Chunked: SQLite caps bound parameters per statement, and a newsletter may have hundreds of links.
    for (let start = 0; start < email.links.length; start += 100) {
      await trx
        .insertInto("mailpulse_link")
        .values(
          email.links.slice(start, start + 100).map((link, index) => ({
            id: link.id,
            email_id: email.id,
            organization_id: email.organizationId,
            campaign_id: email.campaignId,
            url: link.url,
            position: start + index,
            created_at: createdAt,
          })),
        )
        .execute();
    }
  }

  /** The rows read back with their recipients and tags: two queries for the whole page. */
  async function withDetails(rows: Selectable<EmailTable>[]): Promise<EmailRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const kindOrder = { to: 0, cc: 1, bcc: 2 } as const;
    const recipients = await db
      .selectFrom("mailpulse_email_recipient")
      .select(["email_id", "kind", "position", "address", "display"])
      .where("email_id", "in", ids)
      .execute();
    const tags = await db
      .selectFrom("mailpulse_email_tag")
      .select(["email_id", "name", "value"])
      .where("email_id", "in", ids)
      .orderBy("position")
      .execute();
    recipients.sort((a, b) => kindOrder[a.kind] - kindOrder[b.kind] || a.position - b.position);
    return rows.map((row) =>
      toEmailRecord(
        row,
        recipients
          .filter((recipient) => recipient.email_id === row.id)
          .map(({ kind, address, display }) => ({ kind, address, display })),
        tags.filter((tag) => tag.email_id === row.id).map(({ name, value }) => ({ name, value })),
      ),
    );
  }

  return {
    async create(email, sent) {
      // Counting a sent email locks its contacts' rows, as tracking batches do: a deadlock with a
      // concurrent batch aborts one of them, and this one must not fail for it.
      await retryOnLockConflict(
        () =>
          db.transaction().execute(async (trx) => {
            // First, before any row lock: it appends to the event log (see MailPulseDialect.lockEventLog).
            if (sent?.logSentEvent) await dialect.lockEventLog(trx, schema);
            await insertEmail(trx, email, sent);
            if (sent) await applySent(trx, email, sent);
          }),
        dialect.isLockConflict,
      );
    },
    async createSuppressed(email, reason) {
      // Counted nowhere and logged nowhere: no rollup row to lock, so no lock conflict to retry.
      await db.transaction().execute((trx) => insertEmail(trx, email, undefined, reason));
    },
    async markSent(organizationId, emailId, mark) {
      // Runs after the provider accepted the message: a lock conflict must not turn it into a failure.
      return retryOnLockConflict(
        () =>
          db.transaction().execute(async (trx) => {
            // First, before any row lock: it appends to the event log (see MailPulseDialect.lockEventLog).
            if (mark.logSentEvent) await dialect.lockEventLog(trx, schema);
            const result = await trx
              .updateTable("mailpulse_email")
              .set({
                status: "sent",
                sent_at: mark.sentAt.getTime(),
                provider_message_id: mark.providerMessageId,
              })
              .where("organization_id", "=", organizationId)
              .where("id", "=", emailId)
              .where("status", "=", "sending")
              .returning(["campaign_id"])
              .executeTakeFirst();
            if (!result) return false;
            await applySent(trx, { organizationId, campaignId: result.campaign_id, id: emailId }, mark);
            return true;
          }),
        dialect.isLockConflict,
      );
    },
    async markFailed(organizationId, emailId, reason) {
      await db
        .updateTable("mailpulse_email")
        .set({ status: "failed", failure_reason: reason.slice(0, 1000) })
        .where("organization_id", "=", organizationId)
        .where("id", "=", emailId)
        .where("status", "=", "sending")
        .execute();
    },
    async markStaleSendingUnknown(createdBefore) {
      // Counted like a sent email: it probably was, and its opens and clicks must count too.
      return retryOnLockConflict(
        () =>
          db.transaction().execute(async (trx) => {
            const stale = await trx
              .updateTable("mailpulse_email")
              .set({ status: "unknown", sent_at: sql<number>`created_at` })
              .where("status", "=", "sending")
              .where("created_at", "<", createdBefore.getTime())
              .returning(["id", "organization_id", "campaign_id", "created_at"])
              .execute();
            for (const row of stale) {
              await applySent(
                trx,
                { organizationId: row.organization_id, campaignId: row.campaign_id, id: row.id },
                { providerMessageId: null, sentAt: new Date(Number(row.created_at)) },
              );
            }
            return stale.length;
          }),
        dialect.isLockConflict,
      );
    },
    async findByProviderMessageId(messageId) {
      if (messageId === "") return undefined;
      const rows = await db
        .selectFrom("mailpulse_email")
        .select(["organization_id", "id"])
        .where("provider_message_id", "=", messageId)
        .limit(2)
        .execute();
      const [row] = rows;
      return rows.length === 1 && row ? { organizationId: row.organization_id, emailId: row.id } : undefined;
    },
    async get(organizationId, emailId) {
      const row = await db
        .selectFrom("mailpulse_email")
        .selectAll()
        .where("organization_id", "=", organizationId)
        .where("id", "=", emailId)
        .executeTakeFirst();
      return row && (await withDetails([row]))[0];
    },
    async list(organizationId, limit) {
      const rows = await db
        .selectFrom("mailpulse_email")
        .selectAll()
        .where("organization_id", "=", organizationId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return withDetails(rows);
    },
    async page(organizationId, query) {
      let select = db.selectFrom("mailpulse_email").selectAll().where("organization_id", "=", organizationId);
      if (query.after) {
        const { createdAt, id } = query.after;
        select = select.where((eb) =>
          eb.or([
            eb("created_at", "<", createdAt.getTime()),
            eb.and([eb("created_at", "=", createdAt.getTime()), eb("id", "<", id)]),
          ]),
        );
      }
      if (query.campaignId !== undefined) select = select.where("campaign_id", "=", query.campaignId);
      if (query.status !== undefined) select = select.where("status", "=", query.status);
      if (query.since !== undefined) select = select.where("created_at", ">=", query.since.getTime());
      if (query.until !== undefined) select = select.where("created_at", "<", query.until.getTime());
      const to = query.to;
      if (to !== undefined) {
        // The recipient index leads with (organization_id, address, kind): one probe per email.
        select = select.where(({ exists, selectFrom }) =>
          exists(
            selectFrom("mailpulse_email_recipient")
              .select("mailpulse_email_recipient.email_id")
              .whereRef("mailpulse_email_recipient.email_id", "=", "mailpulse_email.id")
              .where("mailpulse_email_recipient.organization_id", "=", organizationId)
              .where("mailpulse_email_recipient.address", "=", to)
              .where("mailpulse_email_recipient.kind", "=", "to"),
          ),
        );
      }
      const rows = await select
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(query.limit)
        .execute();
      return withDetails(rows);
    },
  };
}
