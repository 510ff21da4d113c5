/**
 * The HTML of the unsubscribe URL (`{basePath}/u/<token>`): the confirmation page a GET answers,
 * the page the confirmation's POST answers, and the "not valid" page. Plain HTML for every
 * browser and screen reader: no JavaScript, no external resource (fonts, images, stylesheets),
 * one form with one labelled button, a language and a title, system fonts and colours that
 * follow the reader's light or dark setting.
 */

/** The form field the confirmation page's button sends, so its POST is told from a one-click one. */
export const pageConfirmationField = { name: "source", value: "page" } as const;

/**
 * Headers of every page: nothing may load from elsewhere or run (`default-src 'none'`), the one
 * form posts only back here (`form-action 'self'`), no site may frame the button (clickjacking),
 * no referrer carries the token away, and nothing is cached (the answer is about one recipient).
 */
export const pageHeaders: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const style = `body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:2rem 1rem;color-scheme:light dark}
main{max-width:32rem;margin:0 auto}h1{font-size:1.5rem;margin:0 0 1rem}
button{font:inherit;padding:.6rem 1.4rem;border:2px solid currentColor;border-radius:.4rem;cursor:pointer}
button:focus-visible{outline:3px solid Highlight;outline-offset:2px}`;

const htmlEscapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` safe between tags and inside quoted attributes. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => htmlEscapes[char] ?? char);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${style}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * The page a GET answers: which address it is about and one button. The form has no `action`,
 * so it posts to the URL the page was fetched from, whatever proxy or mount point served it.
 */
export function confirmationPage(recipient: string): string {
  return page(
    "Unsubscribe",
    `<h1>Unsubscribe</h1>
<p>Stop receiving these emails at <strong>${escapeHtml(recipient)}</strong>?</p>
<form method="post">
<input type="hidden" name="${pageConfirmationField.name}" value="${pageConfirmationField.value}">
<button type="submit">Unsubscribe</button>
</form>`,
  );
}

/** The page the confirmation's POST answers. */
export function unsubscribedPage(recipient: string): string {
  return page(
    "You are unsubscribed",
    `<h1 role="status">You are unsubscribed</h1>
<p><strong>${escapeHtml(recipient)}</strong> will not receive these emails any more.</p>`,
  );
}

/** The page for a forged, altered or unknown link. */
export const invalidLinkPage = page(
  "Link not valid",
  `<h1>This unsubscribe link is not valid</h1>
<p>It may have been copied incompletely. Use the unsubscribe link in the email itself, or reply to its sender.</p>`,
);
