import type { HitSignals, HitSource } from "../../src/measurement/hit-verdict.js";

/**
 * The labelled set: messages with the hits a known client made on them, each hit labelled with
 * the source a person who knew the truth would give it. The table-driven test and
 * `npm run bench:classify` read it. The user agents and addresses are those the clients really
 * send (docs/measurement.md names the sources); the timings follow the behaviour the providers
 * and senders document. It is our own set: it measures the rules against the behaviours we
 * know, not against traffic we have not seen.
 */
export interface LabelledMessage {
  /** What the message's hits are, for test names and the benchmark's per-kind table. */
  kind: string;
  knownMiss?: string;
  hits: LabelledHit[];
}

/** One hit with its true source. */
export interface LabelledHit extends HitSignals {
  label: HitSource;
}

export const userAgents = {
  applePrivacy: "Mozilla/5.0",
  appleMailMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
  appleMailIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  gmailProxy: "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
  yahooProxy: "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html",
  outlookDesktop: "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17328; Pro)",
  thunderbird: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0",
  chromeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  gmailAndroidWebView:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36",
  firefoxMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0",
  headlessChrome:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
  slack: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
  whatsapp: "WhatsApp/2.23.20.0",
  facebook: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  curl: "curl/8.4.0",
  pythonRequests: "python-requests/2.31.0",
  barracuda: "Barracuda Sentinel (EE)",
  mimecast: "Mimecast URL Protect",
} as const;

export const addresses = {
  applePrivacy: () => `17.${pick(0, 255)}.${pick(0, 255)}.${pick(1, 254)}`,
  googleProxy: () => `66.249.${pick(80, 95)}.${pick(1, 254)}`,
  yahooProxy: () => `98.137.${pick(0, 255)}.${pick(1, 254)}`,
  residential: () => `${pick(70, 99)}.${pick(0, 255)}.${pick(0, 255)}.${pick(1, 254)}`,
  mobile: () => `2a02:${hex()}:${hex()}:${hex()}::${hex()}`,
  office: () => `203.0.${pick(113, 113)}.${pick(1, 254)}`,
  microsoftEop: () => `40.107.${pick(0, 255)}.${pick(1, 254)}`,
  microsoftDetonation: () => `40.94.${pick(0, 255)}.${pick(1, 254)}`,
  proofpoint: () => `148.163.${pick(128, 159)}.${pick(1, 254)}`,
  mimecast: () => `205.139.110.${pick(1, 254)}`,
  cloud: () => `34.${pick(0, 255)}.${pick(0, 255)}.${pick(1, 254)}`,
} as const;

// A small seeded generator (mulberry32): the set is the same on every run.
let seed = 20261123;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function pick(min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
function hex(): string {
  return pick(0, 0xffff).toString(16);
}

const sentAt = Date.UTC(2026, 10, 2, 9, 0, 0);
const second = 1000;
const minute = 60 * second;

interface HitSpec {
  type: "open" | "click";
  afterMs: number;
  userAgent: string | null;
  ip: string | null;
  link?: number;
  method?: "GET" | "HEAD";
  label: HitSource;
}

function message(kind: string, specs: HitSpec[]): LabelledMessage {
  const id = `m${pick(0, 1e9)}`;
  return {
    kind,
    hits: specs.map((spec) => ({
      type: spec.type,
      method: spec.method ?? "GET",
      userAgent: spec.userAgent,
      ip: spec.ip,
      at: sentAt + spec.afterMs,
      msSinceSent: spec.afterMs,
      linkId: spec.type === "click" ? `${id}-l${spec.link ?? 0}` : null,
      label: spec.label,
    })),
  };
}

/** Every link of a message followed by one scanner, `gapMs` apart, from `ip` with `userAgent`. */
function scan(
  startMs: number,
  links: number,
  gapMs: number,
  userAgent: string,
  ip: () => string,
  sameIp = true,
) {
  const address = ip();
  return Array.from({ length: links }, (_, link) => ({
    type: "click" as const,
    afterMs: startMs + link * gapMs,
    userAgent,
    ip: sameIp ? address : ip(),
    link,
    label: "security_scanner" as const,
  }));
}

/** One kind of message, each builder making a fresh instance (new addresses, new timings). */
export interface MessageKind {
  kind: string;
  /** How many of this kind the set holds. */
  count: number;
  /** Set when the rules are known to miss these machines: why (docs/measurement.md lists it). */
  knownMiss?: string;
  build: () => HitSpec[];
}

export const messageKinds: readonly MessageKind[] = [
  // Apple Mail with Privacy Protection on: the prefetch on delivery, later reads through the relay.
  {
    kind: "Apple Mail Privacy Protection prefetch",
    count: 120,
    build: () => [
      {
        type: "open",
        afterMs: pick(2, 90) * second,
        userAgent: userAgents.applePrivacy,
        ip: addresses.applePrivacy(),
        label: "apple_privacy",
      },
    ],
  },
  {
    kind: "Apple Mail Privacy Protection prefetch, then a reader's click from Safari",
    count: 30,
    build: () => [
      {
        type: "open",
        afterMs: pick(2, 60) * second,
        userAgent: userAgents.applePrivacy,
        ip: addresses.applePrivacy(),
        label: "apple_privacy",
      },
      {
        type: "click",
        afterMs: pick(10, 600) * minute,
        userAgent: userAgents.safariIphone,
        ip: addresses.mobile(),
        label: "human",
      },
    ],
  },
  // Apple Mail with Privacy Protection off: the reader's own device and address.
  {
    kind: "Apple Mail with MPP off (Mac), a reader",
    count: 30,
    build: () => [
      {
        type: "open",
        afterMs: pick(3, 300) * minute,
        userAgent: userAgents.appleMailMac,
        ip: addresses.residential(),
        label: "human",
      },
    ],
  },
  {
    kind: "Apple Mail with MPP off (iPhone), opens and clicks",
    count: 25,
    build: () => {
      const ip = addresses.mobile();
      const openAt = pick(1, 600) * minute;
      return [
        { type: "open", afterMs: openAt, userAgent: userAgents.appleMailIphone, ip, label: "human" },
        {
          type: "click",
          afterMs: openAt + pick(4, 90) * second,
          userAgent: userAgents.safariIphone,
          ip,
          label: "human",
        },
      ];
    },
  },
  {
    kind: "Gmail (web or app) through Google's image proxy, then a click",
    count: 80,
    build: () => {
      const openAt = pick(1, 900) * minute;
      const hits: HitSpec[] = [
        {
          type: "open",
          afterMs: openAt,
          userAgent: userAgents.gmailProxy,
          ip: addresses.googleProxy(),
          label: "image_proxy",
        },
      ];
      if (random() < 0.4) {
        hits.push({
          type: "click",
          afterMs: openAt + pick(3, 120) * second,
          userAgent: random() < 0.5 ? userAgents.chromeWindows : userAgents.gmailAndroidWebView,
          ip: addresses.residential(),
          label: "human",
        });
      }
      return hits;
    },
  },
  {
    kind: "Yahoo Mail through its image proxy",
    count: 20,
    build: () => [
      {
        type: "open",
        afterMs: pick(1, 900) * minute,
        userAgent: userAgents.yahooProxy,
        ip: addresses.yahooProxy(),
        label: "image_proxy",
      },
    ],
  },
  {
    kind: "Outlook desktop, a reader who opens and clicks",
    count: 40,
    build: () => {
      const ip = addresses.office();
      const openAt = pick(2, 480) * minute;
      return [
        { type: "open", afterMs: openAt, userAgent: userAgents.outlookDesktop, ip, label: "human" },
        {
          type: "click",
          afterMs: openAt + pick(5, 200) * second,
          userAgent: userAgents.chromeWindows,
          ip,
          link: 1,
          label: "human",
        },
      ];
    },
  },
  {
    kind: "Thunderbird, a reader",
    count: 15,
    build: () => [
      {
        type: "open",
        afterMs: pick(1, 900) * minute,
        userAgent: userAgents.thunderbird,
        ip: addresses.residential(),
        label: "human",
      },
    ],
  },
  {
    kind: "A reader who opens 3 seconds after delivery and clicks soon after",
    count: 15,
    build: () => {
      const ip = addresses.residential();
      return [
        { type: "open", afterMs: 3 * second, userAgent: userAgents.appleMailMac, ip, label: "human" },
        {
          type: "click",
          afterMs: pick(8, 20) * second,
          userAgent: userAgents.firefoxMac,
          ip,
          label: "human",
        },
      ];
    },
  },
  {
    kind: "A reader who opens twice and clicks two links a while apart",
    count: 30,
    build: () => {
      const ip = addresses.residential();
      const at = pick(5, 300) * minute;
      return [
        { type: "open", afterMs: at, userAgent: userAgents.chromeAndroid, ip, label: "human" },
        {
          type: "click",
          afterMs: at + pick(6, 60) * second,
          userAgent: userAgents.chromeAndroid,
          ip,
          link: 0,
          label: "human",
        },
        {
          type: "open",
          afterMs: at + pick(2, 30) * minute,
          userAgent: userAgents.chromeAndroid,
          ip,
          label: "human",
        },
        {
          type: "click",
          afterMs: at + pick(31, 60) * minute,
          userAgent: userAgents.chromeAndroid,
          ip,
          link: 2,
          label: "human",
        },
      ];
    },
  },
  {
    kind: "A reader with images off who only clicks",
    count: 20,
    build: () => [
      {
        type: "click",
        afterMs: pick(1, 900) * minute,
        userAgent: userAgents.chromeWindows,
        ip: addresses.residential(),
        label: "human",
      },
    ],
  },
  {
    kind: "A fast reader who opens three links in new tabs, 2 to 4 seconds apart",
    count: 10,
    build: () => {
      const ip = addresses.residential();
      const at = pick(5, 300) * minute;
      const gap = pick(2000, 4000);
      return [0, 1, 2].map((link) => ({
        type: "click" as const,
        afterMs: at + link * gap,
        userAgent: userAgents.chromeWindows,
        ip,
        link,
        label: "human" as const,
      }));
    },
  },
  // Security gateways.
  {
    kind: "Microsoft Defender detonation: every link from Microsoft addresses with a Chrome user agent",
    count: 40,
    build: () =>
      scan(
        pick(5, 40) * second,
        pick(1, 6),
        pick(50, 800),
        userAgents.chromeWindows,
        addresses.microsoftDetonation,
        false,
      ),
  },
  {
    kind: "Microsoft Safe Links time-of-click check, then the person",
    count: 20,
    build: () => {
      const at = pick(10, 600) * minute;
      return [
        {
          type: "click",
          afterMs: at,
          userAgent: userAgents.chromeWindows,
          ip: addresses.microsoftEop(),
          label: "security_scanner",
        },
        {
          type: "click",
          afterMs: at + pick(200, 900),
          userAgent: userAgents.chromeWindows,
          ip: addresses.office(),
          label: "human",
        },
      ];
    },
  },
  {
    kind: "Proofpoint URL Defense following every link and the pixel",
    count: 20,
    build: () => {
      const ip = addresses.proofpoint();
      return [
        {
          type: "open",
          afterMs: pick(3, 20) * second,
          userAgent: userAgents.chromeWindows,
          ip,
          label: "security_scanner",
        },
        ...scan(pick(21, 40) * second, pick(2, 5), pick(100, 600), userAgents.chromeWindows, () => ip),
      ];
    },
  },
  {
    kind: "An on-premises gateway and its reader behind one office address",
    count: 15,
    build: () => {
      const ip = addresses.office();
      return [
        ...scan(pick(10, 40) * second, pick(2, 4), pick(100, 600), userAgents.chromeWindows, () => ip),
        {
          type: "open",
          afterMs: pick(41, 59) * second,
          userAgent: userAgents.outlookDesktop,
          ip,
          label: "human",
        },
      ];
    },
  },
  {
    kind: "Mimecast and Barracuda announcing themselves",
    count: 20,
    build: () => [
      ...scan(
        pick(4, 60) * second,
        pick(1, 4),
        pick(200, 2000),
        random() < 0.5 ? userAgents.mimecast : userAgents.barracuda,
        addresses.cloud,
      ),
    ],
  },
  {
    kind: "A scanner with a browser user agent from an unpublished address, caught by breadth",
    count: 40,
    build: () => {
      const ip = addresses.cloud();
      return [
        {
          type: "open",
          afterMs: pick(5, 30) * second,
          userAgent: userAgents.chromeWindows,
          ip,
          label: "security_scanner",
        },
        ...scan(pick(31, 60) * second, pick(3, 6), pick(100, 900), userAgents.chromeWindows, () => ip),
      ];
    },
  },
  {
    kind: "A scanner with a browser user agent following a single link within seconds of sending",
    count: 20,
    build: () => scan(pick(1000, 4900), 1, 0, userAgents.chromeWindows, addresses.cloud),
  },
  {
    kind: "A scanner with a browser user agent following a single link a minute after sending",
    count: 5,
    knownMiss:
      "one GET with a browser's user agent from an unlisted address, at a reader's pace: nothing tells it from a person",
    build: () => scan(pick(40, 120) * second, 1, 0, userAgents.chromeWindows, addresses.cloud),
  },
  {
    kind: "HEAD requests checking links",
    count: 20,
    build: () => {
      // Early HEADs come with the delivery's scan; later ones are link checkers (bots).
      const afterMs = pick(2, 600) * second;
      const label = afterMs < 60 * second ? "security_scanner" : "bot";
      return [
        {
          type: "click",
          method: "HEAD",
          afterMs,
          userAgent: userAgents.safariIphone,
          ip: addresses.applePrivacy(),
          label,
        },
      ];
    },
  },
  // Link previews, crawlers, scripts, headless browsers.
  {
    kind: "Link previews in chat apps after the reader shares a link",
    count: 25,
    build: () => {
      const at = pick(30, 900) * minute;
      const bot = [userAgents.slack, userAgents.whatsapp, userAgents.facebook][pick(0, 2)]!;
      return [
        {
          type: "click",
          afterMs: at,
          userAgent: userAgents.chromeWindows,
          ip: addresses.residential(),
          label: "human",
        },
        {
          type: "click",
          afterMs: at + pick(60, 600) * second,
          userAgent: bot,
          ip: addresses.cloud(),
          label: "bot",
        },
      ];
    },
  },
  {
    kind: "Scripts, headless browsers and clients with no user agent",
    count: 30,
    build: () => {
      const agent = [userAgents.curl, userAgents.pythonRequests, userAgents.headlessChrome, null][
        pick(0, 3)
      ]!;
      return [
        {
          type: random() < 0.5 ? "open" : "click",
          afterMs: pick(1, 600) * minute,
          userAgent: agent,
          ip: addresses.cloud(),
          label: "bot",
        },
      ];
    },
  },
];

/** The whole set: every kind, `count` fresh messages each. */
export function labelledMessages(): LabelledMessage[] {
  seed = 20261123;
  return messageKinds.flatMap((kind) =>
    Array.from({ length: kind.count }, () => ({
      ...message(kind.kind, kind.build()),
      knownMiss: kind.knownMiss,
    })),
  );
}
