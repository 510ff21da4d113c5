/**
 * Child-process entry of the RSS case: `node --expose-gc hit-loop.ts <sqlite file>`.
 *
 * Registers RssSettings.emails emails on a SQLite file, then sends RssSettings.hits pixel requests
 * through `mailpulse.handler` in-process (the whole core path: routing, the lookups cache, the
 * group-commit writer, SQLite; not the Node bridge, whose per-request objects die young). Hits
 * are skewed as a newsletter's are: 80% on a hot set of half the cache's size (the newest
 * emails), 20% spread over every email, so the cache stays full and keeps evicting; one hit in ten
 * is on a never-seen unknown id, so the negative cache must stay bounded too. (Cycling through
 * all the ids instead would miss the LRU cache on every hit and measure only the database.) Prints a JSON `MemorySample` line before the first hit and ten times during
 * the run, then `{"done":true,...}` with the recorded opens read back from the database.
 */
import { createMailPulse, memoryProvider } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { scalarQuery } from "../server/scalar-query.js";
import { sampleMemory } from "./memory-sample.js";
import { readRssSettings } from "./rss-settings.js";

const filename = process.argv[2] ?? "";
const settings = readRssSettings();
const storage = sqliteStorage({ filename });
await storage.migrate();
const mailpulse = createMailPulse({
  storage,
  baseUrl: "http://127.0.0.1",
  mailProvider: memoryProvider(),
  tracking: { cacheSize: settings.cacheSize },
});
const organization = await mailpulse.organizations.create({ name: "RSS" });

// Registering (the host sends) stores an email in one transaction: the quickest public way to
// get thousands of trackable ids.
const pixelUrls: string[] = new Array(settings.emails);
let nextEmail = 0;
const register = async () => {
  for (let index = nextEmail++; index < settings.emails; index = nextEmail++) {
    const registered = await mailpulse.emails.register(organization.id, {
      to: [`reader${index}@example.net`],
      subject: `Issue ${index}`,
      htmlContent: `<p>Hello <a href="https://shop.example.com/p/${index}">offer</a></p>`,
    });
    pixelUrls[index] = registered.pixelUrl;
  }
};
await Promise.all(Array.from({ length: 10 }, register));

const hotEmails = Math.max(1, Math.min(settings.emails, Math.floor(settings.cacheSize / 2)));
/** Which email hit number `hit` opens: deterministic, skewed towards the newest emails. */
function emailIndex(hit: number): number {
  // A multiplicative hash spreads consecutive hits over [0, 1) without a random generator's state.
  const spread = ((hit * 2654435761) >>> 0) / 2 ** 32;
  const newest = settings.emails - 1;
  return spread < 0.8
    ? newest - Math.floor((spread / 0.8) * hotEmails)
    : Math.floor(((spread - 0.8) / 0.2) * settings.emails);
}

const print = (line: object) => console.log(JSON.stringify(line));
const started = performance.now();
print(sampleMemory(0, 0, 0));

const headers = { "user-agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15" };
const sampleEvery = Math.max(1, Math.floor(settings.hits / 10));
let nextHit = 0;
let knownHits = 0;
let failures = 0;
let lastSample = { hits: 0, at: started };

const worker = async () => {
  for (let hit = nextHit++; hit < settings.hits; hit = nextHit++) {
    const known = hit % 10 !== 9;
    const url = known ? pixelUrls[emailIndex(hit)]! : `http://127.0.0.1/api/t/o/unknown${hit}`;
    const response = await mailpulse.handler(new Request(url, { headers }), { clientIp: "203.0.113.7" });
    await response.arrayBuffer();
    if (response.status !== 200) failures += 1;
    else if (known) knownHits += 1;
    if ((hit + 1) % sampleEvery === 0) {
      const now = performance.now();
      const rate = ((hit + 1 - lastSample.hits) * 1000) / (now - lastSample.at);
      lastSample = { hits: hit + 1, at: now };
      print(sampleMemory(hit + 1, (now - started) / 1000, rate));
    }
  }
};
await Promise.all(Array.from({ length: settings.concurrency }, worker));

await mailpulse.stop();
await storage.close();
const recorded = await scalarQuery({ kind: "sqlite", filename }, "select count(*) from {mailpulse_event}");
print({ done: true, knownHits, failures, recorded, seconds: (performance.now() - started) / 1000 });
