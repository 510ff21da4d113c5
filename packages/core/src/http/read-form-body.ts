import { MailPulseError } from "../errors.js";
import { readBodyBytes } from "./read-body.js";

const urlEncoded = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;
const multipart = /^multipart\/form-data\s*;/i;

/**
 * Reads an HTML form body of at most `maxBytes` bytes into its text fields: what a browser's
 * `<form method="post">` and a mail client's RFC 8058 one-click POST send. Accepts
 * `application/x-www-form-urlencoded` and `multipart/form-data` (some mail clients send the
 * one-click body so); a body without a Content-Type is read as URL-encoded, since
 * `List-Unsubscribe=One-Click` is that whatever the client forgot to say. Any other type is
 * UNSUPPORTED_MEDIA_TYPE (415), a multipart body that does not parse BAD_REQUEST (400), past the
 * limit PAYLOAD_TOO_LARGE (413). File parts are skipped. Only the routes that declare a form read
 * one: every other route still takes JSON alone.
 */
export async function readFormBody(request: Request, maxBytes: number): Promise<URLSearchParams> {
  const bytes = await readBodyBytes(request, maxBytes);
  const contentType = request.headers.get("content-type")?.trim() ?? "";
  if (contentType === "" || urlEncoded.test(contentType)) {
    return new URLSearchParams(bytes.toString("utf8"));
  }
  if (!multipart.test(contentType)) {
    throw new MailPulseError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type must be application/x-www-form-urlencoded or multipart/form-data (got "${contentType}")`,
    );
  }
  let form: FormData;
  try {
    // The fetch implementation's own multipart parser, on bytes already bounded above.
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
  } catch (error) {
    throw new MailPulseError("BAD_REQUEST", "The multipart/form-data body does not parse", { cause: error });
  }
  const fields = new URLSearchParams();
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") fields.append(name, value);
  }
  return fields;
}
