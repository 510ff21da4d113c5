/**
 * Deterministic newsletters of a chosen size, shaped like what ESP templates produce: an XHTML
 * head with Office settings in `<!--[if mso]>` comments and a large style block, a hidden
 * preheader, ghost tables for Outlook around every section, VML "bulletproof" buttons next to
 * their `<!--[if !mso]><!-->` HTML twins, two-column product rows of nested tables with inline
 * styles and entities, and a footer of social, preference and unsubscribe links (some with ESP
 * merge tags). Same size in, same bytes out.
 */

const head = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" lang="en">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1.0" />
<meta name="x-apple-disable-message-reformatting" />
<title>Northwind Outfitters &mdash; This week</title>
<!--[if mso]><noscript><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml></noscript><![endif]-->
<style type="text/css">
  body, table, td, a { -webkit-text-size-adjust: 100%; -ms-text-size-adjust: 100%; }
  table, td { mso-table-lspace: 0pt; mso-table-rspace: 0pt; }
  img { -ms-interpolation-mode: bicubic; border: 0; height: auto; line-height: 100%; outline: none; }
  a[x-apple-data-detectors] { color: inherit !important; text-decoration: none !important; }
  @media screen and (max-width: 600px) {
    .container { width: 100% !important; }
    .column { display: block !important; width: 100% !important; max-width: 100% !important; }
  }
</style>
<!--[if mso]><style type="text/css">body, table, td, a { font-family: Arial, sans-serif !important; }</style><![endif]-->
</head>
<body style="margin:0;padding:0;background-color:#f1f3f5;">
<div style="display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all;">New arrivals, member prices and a weekend guide&zwnj;&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;</div>
<center style="width:100%;background-color:#f1f3f5;">
<!--[if mso | IE]><table role="presentation" border="0" cellpadding="0" cellspacing="0" width="600" align="center"><tr><td><![endif]-->
<table role="presentation" class="container" align="center" width="600" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;margin:0 auto;background:#ffffff;">
<tr><td style="padding:24px;text-align:center;"><a href="https://www.northwind.example/?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=weekly"><img src="https://cdn.northwind.example/logo.png" width="180" height="40" alt="Northwind Outfitters" style="display:block;margin:0 auto;" /></a></td></tr>
`;

function button(url: string, label: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" align="center"><tr><td>
<!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="${url}" style="height:40px;v-text-anchor:middle;width:200px;" arcsize="10%" stroke="f" fillcolor="#2e7d32"><w:anchorlock/><center style="color:#ffffff;font-family:Arial,sans-serif;font-size:15px;font-weight:bold;">${label}</center></v:roundrect><![endif]-->
<!--[if !mso]><!--><a href="${url}" class="button" style="background:#2e7d32;border-radius:4px;color:#ffffff;display:inline-block;font-family:Arial,sans-serif;font-size:15px;font-weight:bold;line-height:40px;text-align:center;text-decoration:none;width:200px;-webkit-text-size-adjust:none;">${label}</a><!--<![endif]-->
</td></tr></table>`;
}

function product(section: number, column: number): string {
  const id = section * 2 + column;
  const url = `https://www.northwind.example/p/${id}-trail-jacket?utm_source=newsletter&amp;utm_medium=email&amp;utm_content=product-${id}`;
  return `<!--[if mso]><td width="276" valign="top"><![endif]-->
<div class="column" style="display:inline-block;width:100%;max-width:276px;vertical-align:top;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td style="padding:12px;">
<a href="${url}"><img src="https://cdn.northwind.example/img/${id}.jpg?w=552&amp;h=368&amp;fit=crop" width="252" height="168" alt="Trail jacket ${id}" style="display:block;width:100%;max-width:252px;" /></a>
<h3 style="margin:12px 0 4px;font-family:Arial,sans-serif;font-size:17px;line-height:22px;color:#111111;"><a href="${url}" style="color:#111111;text-decoration:none;">Trail jacket &ndash; edition ${id}</a></h3>
<p style="margin:0 0 8px;font-family:Arial,sans-serif;font-size:14px;line-height:20px;color:#555555;">Windproof, packs into its own pocket &amp; weighs 240&nbsp;g. Reviewers call it &ldquo;the one I reach for first&rdquo;. Now &euro;${89 + (id % 40)},&#8203;00 for members.</p>
<p style="margin:0;font-family:Arial,sans-serif;font-size:14px;"><a href='https://www.northwind.example/p/${id}-trail-jacket#reviews' style='color:#2e7d32;'>Reviews (${(id * 37) % 500})</a> &middot; <a href=https://www.northwind.example/wishlist/add/${id}>Save</a></p>
</td></tr></table>
</div>
<!--[if mso]></td><![endif]-->`;
}

function section(index: number): string {
  const story = `https://blog.northwind.example/guides/${index}-weekend-routes?utm_source=newsletter&amp;utm_medium=email`;
  return `<tr><td style="padding:0 12px;">
<!--[if mso]><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><![endif]-->
${product(index, 0)}
${product(index, 1)}
<!--[if mso]></tr></table><![endif]-->
</td></tr>
<tr><td style="padding:16px 24px;font-family:Arial,sans-serif;font-size:15px;line-height:22px;color:#333333;">
<h2 style="margin:0 0 8px;font-size:20px;">Weekend route #${index}</h2>
<p style="margin:0 0 12px;">Three hours, one lake, no crowds. Our guide walks you through the route, where to park and what to pack &mdash; plus the caf&eacute; at the end.</p>
${button(story, "Read the guide")}
</td></tr>
`;
}

const footer = `<tr><td style="padding:24px;background:#263238;color:#cfd8dc;font-family:Arial,sans-serif;font-size:12px;line-height:18px;text-align:center;">
<p style="margin:0 0 8px;"><a href="https://www.instagram.com/northwind.example" style="color:#ffffff;">Instagram</a> &middot; <a href="https://www.youtube.com/@northwind.example" style="color:#ffffff;">YouTube</a> &middot; <a href="https://www.northwind.example/stores" style="color:#ffffff;">Stores</a></p>
<p style="margin:0 0 8px;">Northwind Outfitters, 12 Harbour Street, Bristol BS1 4XX</p>
<p style="margin:0;"><a href="https://www.northwind.example/preferences?u={{subscriber_id}}" style="color:#ffffff;">Preferences</a> &middot; <a href="{{unsubscribe_url}}" style="color:#ffffff;">Unsubscribe</a> &middot; <a href="mailto:help@northwind.example" style="color:#ffffff;">help@northwind.example</a></p>
</td></tr>
</table>
<!--[if mso | IE]></td></tr></table><![endif]-->
</center>
</body>
</html>
`;

/** A newsletter of at least `targetBytes` UTF-16 code units (sections are added until it is). */
export function generateNewsletter(targetBytes: number): string {
  const parts = [head];
  let length = head.length + footer.length;
  for (let index = 0; length < targetBytes; index++) {
    const next = section(index);
    parts.push(next);
    length += next.length;
  }
  parts.push(footer);
  return parts.join("");
}
