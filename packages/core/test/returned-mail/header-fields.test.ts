import { describe, expect, it } from "vitest";
import {
  fieldLimits,
  fieldValue,
  parseFieldGroups,
  parseHeaderBlock,
} from "../../src/returned-mail/header-fields.js";

describe("parseFieldGroups", () => {
  it("splits a delivery-status part into its per-message group and one group per recipient", () => {
    const groups = parseFieldGroups(
      "Reporting-MTA: dns; mx.example\r\n\r\nFinal-Recipient: rfc822; a@example.com\r\nAction: failed\r\n\r\n\r\nFinal-Recipient: rfc822; b@example.com\r\nAction: delayed\r\n",
    );
    expect(groups).toEqual([
      [{ name: "reporting-mta", value: "dns; mx.example" }],
      [
        { name: "final-recipient", value: "rfc822; a@example.com" },
        { name: "action", value: "failed" },
      ],
      [
        { name: "final-recipient", value: "rfc822; b@example.com" },
        { name: "action", value: "delayed" },
      ],
    ]);
  });

  it("unfolds continued lines into the field above and lowercases names", () => {
    const [group] = parseFieldGroups(
      "Diagnostic-Code: smtp; 550 5.1.1 <a@example.com>:\n    Recipient address\n\trejected\nSTATUS: 5.1.1",
    );
    expect(fieldValue(group!, "diagnostic-code")).toBe(
      "smtp; 550 5.1.1 <a@example.com>: Recipient address rejected",
    );
    expect(fieldValue(group!, "Status")).toBe("5.1.1");
  });

  it("skips stray lines that are no field, and a continuation with nothing above it", () => {
    const [group] = parseFieldGroups("  orphan continuation\nnot a field at all\nAction: failed");
    expect(group).toEqual([{ name: "action", value: "failed" }]);
  });

  it("keeps the first value of a repeated field for fieldValue, and every occurrence in the group", () => {
    const [group] = parseFieldGroups("Reported-Uri: http://a.example/\nReported-Uri: http://b.example/");
    expect(fieldValue(group!, "reported-uri")).toBe("http://a.example/");
    expect(group).toHaveLength(2);
  });

  it("bounds values, fields per group and groups, so a hostile part costs little", () => {
    const huge = `X-Long: ${"a".repeat(100_000)}\n${" b".repeat(50_000)}`;
    expect(parseFieldGroups(huge)[0]![0]!.value.length).toBe(fieldLimits.maxValueChars);
    const many = Array.from({ length: 1000 }, (_, index) => `X-F${index}: v`).join("\n");
    expect(parseFieldGroups(many)[0]).toHaveLength(fieldLimits.maxFields);
    const groups = Array.from({ length: 1000 }, () => "Action: failed").join("\n\n");
    expect(parseFieldGroups(groups)).toHaveLength(fieldLimits.maxGroups);
  });
});

describe("parseHeaderBlock", () => {
  it("reads a message's header up to the first blank line, not its body", () => {
    const fields = parseHeaderBlock(
      "Message-ID: <a@b>\r\nSubject: hi\r\n\r\nX-MailPulse-Tracking-Id: in-the-body\r\n",
    );
    expect(fields.map((field) => field.name)).toEqual(["message-id", "subject"]);
  });

  it("answers an empty list for text without fields", () => {
    expect(parseHeaderBlock("")).toEqual([]);
    expect(fieldValue(parseHeaderBlock("just words"), "subject")).toBeNull();
  });
});
