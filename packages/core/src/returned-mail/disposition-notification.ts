import { typedAddress } from "./addresses.js";
import { messageIdOf } from "./attribution.js";
import { fieldValue, parseFieldGroups } from "./header-fields.js";

/** A `message/disposition-notification` part (RFC 8098): a read receipt. */

/** What a disposition notification says. */
export interface DispositionNotification {
  disposition: string | null;
  recipient: string | null;
  originalMessageId: string | null;
}

/**
 * Reads a disposition notification. `Disposition: manual-action/MDN-sent-manually; displayed`
 * gives the type after the semicolon.
 */
export function readDispositionNotification(text: string): DispositionNotification {
  const fields = parseFieldGroups(text).flat();
  const disposition = fieldValue(fields, "disposition");
  const type = disposition?.split(";")[1]?.trim().toLowerCase().split(/[\s/]/)[0] ?? null;
  return {
    disposition: type && /^[a-z-]{1,30}$/.test(type) ? type : null,
    recipient: typedAddress(
      fieldValue(fields, "final-recipient") ?? fieldValue(fields, "original-recipient"),
    ),
    originalMessageId: messageIdOf(fieldValue(fields, "original-message-id")),
  };
}
