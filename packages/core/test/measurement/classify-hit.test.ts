import { describe, expect, it } from "vitest";
import { addressRangeRule, addressRanges } from "../../src/measurement/address-ranges.js";
import { classifyHistory, classifyHit } from "../../src/measurement/classify-hit.js";
import type { EarlierHit, HitSignals } from "../../src/measurement/hit-verdict.js";
import { labelledMessages, messageKinds, userAgents } from "./labelled-hits.js";

const messages = labelledMessages();

describe("classifyHit on the labelled set", () => {
  for (const kind of messageKinds) {
    const ofKind = messages.filter((message) => message.kind === kind.kind);
    it(`${kind.kind}: ${kind.knownMiss ? "a known miss, judged human" : "every hit gets its label"}`, () => {
      for (const message of ofKind) {
        const verdicts = classifyHistory(message.hits);
        message.hits.forEach((hit, index) => {
          const verdict = verdicts[index]!;
          const context = `${hit.type} +${hit.msSinceSent}ms ${hit.userAgent} ${hit.ip}: ${verdict.reasons.join("; ")}`;
          if (kind.knownMiss) {
            expect(verdict, context).toEqual({
              machine: false,
              source: "human",
              reasons: ["no machine signal"],
            });
          } else {
            expect(verdict.source, context).toBe(hit.label);
            expect(verdict.machine, context).toBe(hit.label !== "human" && hit.label !== "image_proxy");
          }
          expect(verdict.reasons.length).toBeGreaterThan(0);
        });
      }
    });
  }
});

const base: HitSignals = {
  type: "open",
  method: "GET",
  userAgent: userAgents.chromeWindows,
  ip: "198.51.100.7",
  at: 1_000_000,
  msSinceSent: 600_000,
  linkId: null,
};

describe("classifyHit's reasons", () => {
  it("names Apple's proxy when both its address and its user agent are there", () => {
    expect(classifyHit({ ...base, userAgent: "Mozilla/5.0", ip: "17.58.1.2" }, [])).toEqual({
      machine: true,
      source: "apple_privacy",
      reasons: ["Apple Mail Privacy Protection proxy address and user agent"],
    });
  });

  it("keeps a reader using Apple Mail with Privacy Protection off", () => {
    expect(classifyHit({ ...base, userAgent: userAgents.appleMailMac }, [])).toEqual({
      machine: false,
      source: "human",
      reasons: ["no machine signal"],
    });
  });

  it("reads an IPv4 client on a dual-stack socket as its IPv4 address", () => {
    const verdict = classifyHit({ ...base, userAgent: "Mozilla/5.0", ip: "::ffff:17.1.2.3" }, []);
    expect(verdict.reasons).toEqual(["Apple Mail Privacy Protection proxy address and user agent"]);
  });

  it("calls a HEAD request a machine, whatever its user agent", () => {
    const verdict = classifyHit({ ...base, type: "click", method: "HEAD", linkId: "l1" }, []);
    expect(verdict.machine).toBe(true);
    expect(verdict.reasons[0]).toMatch(/^HEAD request/);
  });

  it("names the gateway whose published address made the hit", () => {
    const verdict = classifyHit({ ...base, type: "click", linkId: "l1", ip: "40.107.3.4" }, []);
    expect(verdict).toEqual({
      machine: true,
      source: "security_scanner",
      reasons: ["address of the Microsoft Exchange Online Protection mail security gateway"],
    });
  });

  it("flags a burst on arrival from its second link within a second, and revises the first", () => {
    const clicks: HitSignals[] = [0, 1, 2].map((link) => ({
      ...base,
      type: "click",
      linkId: `l${link}`,
      at: base.at + link * 400,
      msSinceSent: 60_000 + link * 400,
    }));
    const earlier: EarlierHit[] = [];
    const live = clicks.map((hit) => {
      const verdict = classifyHit(hit, earlier);
      earlier.push({ ...hit, verdict });
      return verdict.source;
    });
    expect(live).toEqual(["human", "security_scanner", "security_scanner"]);
    const revised = classifyHistory(clicks);
    expect(revised.map((verdict) => verdict.source)).toEqual(Array(3).fill("security_scanner"));
    expect(revised[0]!.reasons).toEqual([
      "3 different links followed within 0.8 s, all from one address",
      "revised once later hits showed the pattern",
    ]);
  });

  it("finds a three-link burst spread over more than a second only with its third click", () => {
    const clicks: HitSignals[] = [0, 1, 2].map((link) => ({
      ...base,
      type: "click",
      linkId: `l${link}`,
      at: base.at + link * 1400,
      msSinceSent: 60_000 + link * 1400,
    }));
    const first = classifyHit(clicks[0]!, []);
    const second = classifyHit(clicks[1]!, [{ ...clicks[0]!, verdict: first }]);
    expect([first.source, second.source]).toEqual(["human", "human"]);
    expect(classifyHistory(clicks).map((verdict) => verdict.source)).toEqual(
      Array(3).fill("security_scanner"),
    );
  });

  it("does not flag one link clicked twice in a second (a double click)", () => {
    const clicks: HitSignals[] = [0, 300].map((offset) => ({
      ...base,
      type: "click",
      linkId: "l0",
      at: base.at + offset,
    }));
    expect(classifyHistory(clicks).map((verdict) => verdict.source)).toEqual(["human", "human"]);
  });
});

describe("rules of your own", () => {
  const acmeGateway = addressRangeRule({ cidrs: ["198.51.100.0/24"], reason: "Acme's mail gateway" });

  it("decide before the built-in rules", () => {
    expect(classifyHit(base, [], { rules: [acmeGateway] })).toEqual({
      machine: true,
      source: "security_scanner",
      reasons: ["Acme's mail gateway"],
    });
    expect(classifyHit({ ...base, ip: "192.0.2.1" }, [], { rules: [acmeGateway] }).source).toBe("human");
  });

  it("can keep a hit human against the built-in rules, and revision respects it", () => {
    const trustCurl = (hit: HitSignals) =>
      hit.userAgent?.startsWith("curl/")
        ? { machine: false, source: "human" as const, reasons: ["our own check"] }
        : undefined;
    const hit = { ...base, userAgent: "curl/8.4.0" };
    expect(classifyHit(hit, []).source).toBe("bot");
    expect(classifyHistory([hit], { rules: [trustCurl] })[0]!.reasons).toEqual(["our own check"]);
  });

  it("refuses a malformed range with a message naming it", () => {
    expect(() => addressRanges(["10.0.0.0/33"])).toThrow('"10.0.0.0/33" is not a CIDR range');
    expect(() => addressRanges(["acme"])).toThrow('"acme" is not a CIDR range');
  });
});
