import { describe, expect, it } from "vitest";
import {
  findEnhancedStatus,
  findSmtpReply,
  judgeStatus,
  type StatusFacts,
} from "../../src/returned-mail/status-rule.js";

const failed = (status: string | null, smtpCode: number | null = null, text = ""): StatusFacts => ({
  action: "failed",
  status,
  smtpCode,
  text,
});

describe("judgeStatus", () => {
  it.each([
    ["5.1.1", 550, "hard"],
    ["5.1.10", 550, "hard"],
    ["5.7.1", 554, "hard"],
    ["5.0.0", 550, "hard"],
    ["4.4.1", 451, "soft"],
    ["4.7.0", 421, "soft"],
  ] as const)("a failed %s (%s) is %s", (status, code, bounceType) => {
    expect(judgeStatus(failed(status, code)).bounceType).toBe(bounceType);
  });

  it("reads the whole status: a full mailbox is soft even when sent as 552/5.2.2", () => {
    const judgement = judgeStatus(failed("5.2.2", 552));
    expect(judgement.bounceType).toBe("soft");
    expect(judgement.reasons[0]).toMatch(/mailbox is full/);
    expect(judgeStatus(failed("4.2.2", 452)).bounceType).toBe("soft");
  });

  it("counts a full mailbox soft from the words when no status says so", () => {
    expect(judgeStatus(failed(null, 552, "Sorry, the mailbox of x@example.com is full")).bounceType).toBe(
      "soft",
    );
    expect(judgeStatus(failed("5.0.0", 554, "Quota exceeded")).bounceType).toBe("soft");
  });

  it("counts a final failure after temporary rejections (4.4.7, retry timeout exceeded) soft", () => {
    expect(judgeStatus(failed("4.4.7", 451)).bounceType).toBe("soft");
    expect(judgeStatus(failed("5.4.7")).bounceType).toBe("soft");
    expect(judgeStatus(failed("5.0.0", null, "X-str; retry timeout exceeded")).bounceType).toBe("soft");
  });

  it("falls back on the SMTP reply class when there is no enhanced status", () => {
    expect(judgeStatus(failed(null, 550)).bounceType).toBe("hard");
    expect(judgeStatus(failed(null, 450)).bounceType).toBe("soft");
  });

  it("counts a failure without any code soft, so an unclear notice never suppresses at once", () => {
    expect(judgeStatus(failed(null)).bounceType).toBe("soft");
  });

  it.each(["delayed", "delivered", "relayed", "expanded"] as const)(
    "%s is not a bounce, whatever the status",
    (action) => {
      expect(judgeStatus({ action, status: "5.1.1", smtpCode: 550, text: "" }).bounceType).toBe("none");
    },
  );
});

describe("finding codes in text", () => {
  it("finds enhanced status codes where MTAs write them, not in addresses or versions", () => {
    expect(findEnhancedStatus("550 5.1.1 <a@example.com>: User unknown")).toBe("5.1.1");
    expect(findEnhancedStatus("550-5.1.1 The email account")).toBe("5.1.1");
    expect(findEnhancedStatus("Sorry, no mailbox here by that name. (#5.1.1)")).toBe("5.1.1");
    expect(findEnhancedStatus("#550 5.1.10 RESOLVER.ADR.RecipientNotFound")).toBe("5.1.10");
    expect(findEnhancedStatus("192.0.2.50 does not like recipient")).toBeNull();
    expect(findEnhancedStatus("Foomail 2.1.3.4 said hello")).toBeNull();
  });

  it("finds SMTP reply codes followed by a space, a dash or a colon", () => {
    expect(findSmtpReply("Remote host said: 550 5.1.1 User unknown")).toBe(550);
    expect(findSmtpReply("452-4.2.2 over quota")).toBe(452);
    expect(findSmtpReply("554: delivery error: dd This user doesn't have an account")).toBe(554);
    expect(findSmtpReply("#550 5.1.1 RESOLVER")).toBe(550);
    expect(findSmtpReply("delivered in 2500 ms")).toBeNull();
  });
});
