/**
 * The `User-Agent` headers the tracking cases send, one per request, cycled. A real pixel or
 * click always carries one, and MailPulse reads it (docs/measurement.md: Apple's privacy proxy,
 * mail providers' image proxies, scanners and bots are told apart by it first), so a load without
 * one would time a path real traffic rarely takes: the classifier stops at "no user agent".
 * The bare routes receive the same headers and ignore them, as a bare route would.
 */

/**
 * Mail clients fetching the pixel, in roughly the proportions of the public email-client
 * market-share reports: about half Apple Mail (most of it through Privacy Protection's bare
 * `Mozilla/5.0`), a quarter Gmail's image proxy, then Outlook, Yahoo's proxy and other clients.
 */
export const pixelUserAgents: readonly string[] = [
  ...Array<string>(9).fill("Mozilla/5.0"),
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  ...Array<string>(5).fill(
    "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
  ),
  "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)",
  "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.18025; Pro)",
  "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Thunderbird/128.4.2",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0",
];

/** Readers' browsers following a link: desktop and mobile, the common engines. */
export const clickUserAgents: readonly string[] = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/130.0.6723.90 Mobile/15E148 Safari/604.1",
];
