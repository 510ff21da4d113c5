/**
 * The public user-agent lists the classifier is measured on, labelled by their publishers and by
 * nobody on this project. Real browsers come from `top-user-agents` (microlink.io: the most common
 * user agents of the requests it serves, refreshed weekly); crawlers, scripts and previewers from
 * `crawler-user-agents` (the `instances` of each entry: real strings, not the patterns).
 *
 * Neither is independent of isbot, which the classifier uses: top-user-agents drops every string
 * isbot flags before it publishes (its bin/util.js), and isbot's pattern list is built and tested
 * against crawler-user-agents. bench/RESULTS.md says what the figures show despite that.
 */
import crawlerUserAgents from "crawler-user-agents";
import desktopUserAgents from "top-user-agents/desktop";
import mobileUserAgents from "top-user-agents/mobile";
import { installedVersion } from "./installed-version.js";

/** One user agent of a corpus, with the groups the report breaks the figures down by. */
export interface CorpusEntry {
  userAgent: string;
  /** top-user-agents: desktop or mobile (and Apple Mail-like); crawler-user-agents: its tags. */
  groups: readonly string[];
}

/** A labelled list of user agents, as one installed package holds it. */
export interface PublicCorpus {
  packageName: string;
  version: string;
  /** What every user agent of the list is, by its publisher's label. */
  expected: "human" | "machine";
  entries: readonly CorpusEntry[];
}

/**
 * What Apple Mail (macOS) and the iOS Mail app send when they load images themselves (Mail
 * Privacy Protection off): WebKit with no browser token after it. iOS in-app web views send the
 * same, so the group is "mail-client-like", not "mail client".
 */
const appleMailLike = /AppleWebKit\/605\.1\.15 \(KHTML, like Gecko\)( Mobile\/\w+)?$/;

/** top-user-agents' 100 browser user agents, expected human. */
export function topUserAgentsCorpus(): PublicCorpus {
  const entries = [
    ...desktopUserAgents.map((userAgent) => ({ userAgent, device: "desktop" })),
    ...mobileUserAgents.map((userAgent) => ({ userAgent, device: "mobile" })),
  ].map(({ userAgent, device }) => ({
    userAgent,
    groups: appleMailLike.test(userAgent) ? [device, "Apple Mail-like"] : [device],
  }));
  return {
    packageName: "top-user-agents",
    version: installedVersion("top-user-agents"),
    expected: "human",
    entries,
  };
}

/** crawler-user-agents' instances, expected machine; an entry without instances adds nothing. */
export function crawlerUserAgentsCorpus(): PublicCorpus {
  const byUserAgent = new Map<string, CorpusEntry>();
  for (const crawler of crawlerUserAgents) {
    const groups = (crawler as { tags?: string[] }).tags ?? ["untagged"];
    for (const userAgent of crawler.instances ?? []) {
      // The same string under two patterns would count twice; the first entry's tags stand.
      if (!byUserAgent.has(userAgent)) byUserAgent.set(userAgent, { userAgent, groups });
    }
  }
  return {
    packageName: "crawler-user-agents",
    version: installedVersion("crawler-user-agents"),
    expected: "machine",
    entries: [...byUserAgent.values()],
  };
}
