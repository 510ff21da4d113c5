import { describe, expect, it } from "vitest";
import { classifyHit } from "../../src/measurement/classify-hit.js";
import type { HitSignals } from "../../src/measurement/hit-verdict.js";

/**
 * What the classifier reads from a user agent is remembered per distinct string
 * (measurement/user-agent-facts.ts): a verdict must not depend on whether the string was seen
 * before, was pushed out by a thousand others, or was too long to be remembered at all.
 */
function hit(userAgent: string | null, type: "open" | "click" = "click"): HitSignals {
  return {
    type,
    method: "GET",
    userAgent,
    ip: "203.0.113.9",
    at: 1_700_000_000_000,
    msSinceSent: 3_600_000,
    linkId: type === "click" ? "link-1" : null,
  };
}

const scanner = "Mozilla/5.0 (compatible; Barracuda Sentinel)";
const reader =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
const gmail = "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)";

describe("user agents judged again", () => {
  it("gives a user agent the same verdict on its first hit, on later ones, and after a thousand others", () => {
    const first = [scanner, reader, gmail, "Mozilla/5.0", "curl/8.4.0"].map((agent) => ({
      click: classifyHit(hit(agent), []),
      open: classifyHit(hit(agent, "open"), []),
    }));
    expect(first.map((verdicts) => [verdicts.click.source, verdicts.open.source])).toEqual([
      ["security_scanner", "security_scanner"],
      ["human", "human"],
      ["bot", "image_proxy"],
      ["bot", "apple_privacy"],
      ["bot", "bot"],
    ]);
    // More distinct agents than are remembered, bots and browsers alternating.
    for (let index = 0; index < 2_500; index++) {
      const agent = index % 2 === 0 ? `probe-bot/${index}` : `${reader} Build/${index}`;
      const once = classifyHit(hit(agent), []);
      expect(classifyHit(hit(agent), [])).toEqual(once);
      expect(once.source).toBe(index % 2 === 0 ? "bot" : "human");
    }
    const again = [scanner, reader, gmail, "Mozilla/5.0", "curl/8.4.0"].map((agent) => ({
      click: classifyHit(hit(agent), []),
      open: classifyHit(hit(agent, "open"), []),
    }));
    expect(again).toEqual(first);
  });

  it("judges a user agent longer than those remembered by what it says", () => {
    const long = `${"x".repeat(600)} Googlebot/2.1`;
    expect(classifyHit(hit(long), []).source).toBe("bot");
    expect(classifyHit(hit(long), []).source).toBe("bot");
    expect(classifyHit(hit(`${reader} ${"y".repeat(600)}`), []).source).toBe("human");
  });

  it("judges a hit without a user agent as a bot's, every time", () => {
    expect(classifyHit(hit(null), []).source).toBe("bot");
    expect(classifyHit(hit(""), []).source).toBe("bot");
    expect(classifyHit(hit(null), []).source).toBe("bot");
  });
});
