import type { Kysely, Selectable } from "kysely";
import type { InboundMessageRecord, InboundMessageStore } from "../../ports/storage-inbound-messages.js";
import { toDate } from "../mappers.js";
import type { InboundMessageTable, MailPulseDatabase } from "../schema.js";

const table = "mailpulse_inbound_message";

function toInboundMessageRecord(row: Selectable<InboundMessageTable>): InboundMessageRecord {
  return {
    id: Number(row.id),
    organizationId: row.organization_id,
    emailId: row.email_id,
    receivedAt: toDate(row.received_at),
    envelopeFrom: row.envelope_from,
    envelopeTo: JSON.parse(row.envelope_to) as string[],
    kind: row.kind,
    summary: row.summary,
    subject: row.subject,
    messageId: row.message_id,
  };
}

/** {@link InboundMessageStore} on Kysely. */
export function createInboundMessageStore(db: Kysely<MailPulseDatabase>): InboundMessageStore {
  return {
    async add(message) {
      const row = await db
        .insertInto(table)
        .values({
          organization_id: message.organizationId,
          email_id: message.emailId,
          received_at: message.receivedAt.getTime(),
          envelope_from: message.envelopeFrom,
          envelope_to: JSON.stringify(message.envelopeTo),
          kind: message.kind,
          summary: message.summary,
          subject: message.subject,
          message_id: message.messageId,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async list(organizationId, query) {
      let select = db.selectFrom(table).selectAll().where("organization_id", "=", organizationId);
      if (query.before !== undefined) select = select.where("id", "<", query.before);
      if (query.kind !== undefined) select = select.where("kind", "=", query.kind);
      const rows = await select.orderBy("id", "desc").limit(query.limit).execute();
      return rows.map(toInboundMessageRecord);
    },

    async purge({ receivedBefore, keepNewest }) {
      const old = await db
        .deleteFrom(table)
        .where("received_at", "<", receivedBefore.getTime())
        .executeTakeFirst();
      // The newest row beyond the ones kept: it and everything older go.
      const boundary = await db
        .selectFrom(table)
        .select("id")
        .orderBy("id", "desc")
        .offset(Math.max(0, Math.floor(keepNewest)))
        .limit(1)
        .executeTakeFirst();
      let beyond = 0n;
      if (boundary) {
        const result = await db.deleteFrom(table).where("id", "<=", boundary.id).executeTakeFirst();
        beyond = result.numDeletedRows;
      }
      return Number(old.numDeletedRows + beyond);
    },
  };
}
