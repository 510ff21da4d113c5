import { createRecipientToken } from "../feedback/recipient-token.js";

/**
 * The placeholder a sender writes where the unsubscribe link goes (`<a href="{{unsubscribe_url}}">`,
 * or in the text part). Replaced per message by the one-click URL; the click-tracking rewrite
 * never touches a link holding it (docs/deliverability.md, "One-click unsubscribe").
 */
export const unsubscribeUrlPlaceholder = "{{unsubscribe_url}}";

/**
 * Builds the public one-click unsubscribe URL of a token under `baseUrl` (no trailing slash):
 * `{baseUrl}{basePath}/u/<token>`. The HTTP layer knows the path (`routes/unsubscribe-urls.ts`).
 */
export type UnsubscribeUrlOf = (baseUrl: string, token: string) => string;

/** The two addresses a message offers for unsubscribing its (first `to`) recipient. */
export interface UnsubscribeLink {
  /** The one-click URL (RFC 8058): POST unsubscribes, GET shows a page with a button. */
  url: string;
  /** `mailto:unsubscribe+<token>@<return-path domain>`, for clients that only mail. */
  mailto: string;
}

/**
 * The unsubscribe link of recipient 0 (the first `to`) of the email with `trackingId`: headers
 * are per message, and a newsletter message has one recipient; its cc and bcc recipients are
 * offered no link of their own (docs/deliverability.md).
 */
export function unsubscribeLinkOf(
  trackingId: string,
  key: Uint8Array,
  urlOf: UnsubscribeUrlOf,
  baseUrl: string,
  returnPathDomain: string,
): UnsubscribeLink {
  const token = createRecipientToken({ trackingId, recipientIndex: 0 }, "unsubscribe", key);
  return { url: urlOf(baseUrl, token), mailto: `mailto:unsubscribe+${token}@${returnPathDomain}` };
}

/**
 * The headers to add for `link` (RFC 2369 `List-Unsubscribe`, RFC 8058 `List-Unsubscribe-Post`),
 * given the caller's own `headers`: none when the caller set a `List-Unsubscribe` of its own (it
 * is kept as given), and no `List-Unsubscribe-Post` when the caller set that one.
 */
export function unsubscribeHeaders(
  link: UnsubscribeLink,
  callerHeaders: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const given = new Set(Object.keys(callerHeaders ?? {}).map((name) => name.toLowerCase()));
  if (given.has("list-unsubscribe")) return {};
  return {
    "List-Unsubscribe": `<${link.url}>, <${link.mailto}>`,
    ...(given.has("list-unsubscribe-post") ? {} : { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }),
  };
}

/** Whether `content` holds the {@link unsubscribeUrlPlaceholder}. */
export function hasUnsubscribePlaceholder(content: string | undefined): boolean {
  return content?.includes(unsubscribeUrlPlaceholder) ?? false;
}

/**
 * How many {@link unsubscribeUrlPlaceholder}s `content` holds, counting no further than `upTo`
 * (so a check against a limit reads the content only as far as the first one past it).
 */
export function countUnsubscribePlaceholders(content: string | undefined, upTo: number): number {
  if (content === undefined) return 0;
  let count = 0;
  let from = content.indexOf(unsubscribeUrlPlaceholder);
  while (from !== -1 && count < upTo) {
    count += 1;
    from = content.indexOf(unsubscribeUrlPlaceholder, from + unsubscribeUrlPlaceholder.length);
  }
  return count;
}

/**
 * Replaces every placeholder in HTML with the URL, its `&`, quotes and angle brackets written as
 * character references so it is safe in text and in any attribute quoting; every other byte is
 * kept.
 */
export function fillUnsubscribePlaceholderInHtml(html: string, url: string): string {
  if (!html.includes(unsubscribeUrlPlaceholder)) return html;
  const escaped = url.replace(/[&"'<>]/g, (char) => `&#${char.charCodeAt(0)};`);
  return html.replaceAll(unsubscribeUrlPlaceholder, escaped);
}

/** Replaces every placeholder in a text part with the URL as it is. */
export function fillUnsubscribePlaceholderInText(text: string, url: string): string {
  return text.replaceAll(unsubscribeUrlPlaceholder, url);
}
