import { createMailPulse, type MailPulseOptions } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterAll, describe, expect, it } from "vitest";

const storage = sqliteStorage({ filename: ":memory:" });
afterAll(async () => {
  await storage.close();
});

const quiet = { info: () => {}, error: () => {} };
const valid = (): MailPulseOptions => ({ storage, baseUrl: "https://mail.example.com", logger: quiet });
const create = (changes: Record<string, unknown>) =>
  createMailPulse({ ...valid(), ...changes } as unknown as MailPulseOptions);

describe("createMailPulse options", () => {
  it("accepts valid options", () => {
    expect(create({}).basePath).toBe("/api");
    const topicArns = [
      "arn:aws:sns:us-east-1:123456789012:ses-feedback",
      "arn:aws-cn:sns:cn-north-1:123456789012:x",
    ];
    expect(create({ sns: { topicArns } }).basePath).toBe("/api");
  });

  it.each([
    [
      "a base URL without a scheme",
      { baseUrl: "localhost:3000" },
      /baseUrl.*absolute http\(s\) URL.*"localhost:3000"/,
    ],
    ["a base URL that is not a URL", { baseUrl: "not a url" }, /baseUrl.*absolute http\(s\) URL/],
    ["a missing base URL", { baseUrl: undefined }, /baseUrl.*required/],
    ["a base URL with a query", { baseUrl: "https://x.example/?a=1" }, /query or fragment/],
    ["a missing storage", { storage: undefined }, /storage.*required.*migrate/],
    ["something that is not a storage", { storage: { emails: {} } }, /storage\.organizations.*missing/],
    ["a batch size of 0", { tracking: { batchSize: 0 } }, /tracking\.batchSize.*at least 1.*0/],
    ["a fractional cache size", { tracking: { cacheSize: 1.5 } }, /tracking\.cacheSize/],
    ["an unknown acknowledge mode", { tracking: { acknowledge: "later" } }, /tracking\.acknowledge.*"later"/],
    ["an unknown IP retention", { tracking: { ipAddresses: "half" } }, /tracking\.ipAddresses/],
    ["a negative body limit", { maxBodyBytes: -1 }, /maxBodyBytes/],
    [
      "a soft-bounce limit of 0",
      { deliverability: { softBounceLimit: 0 } },
      /deliverability\.softBounceLimit.*at least 1.*0/,
    ],
    [
      "a fractional soft-bounce window",
      { deliverability: { softBounceWindowDays: 0.5 } },
      /deliverability\.softBounceWindowDays/,
    ],
    ["a platform domain with a scheme", { platformDomain: "https://x.example" }, /platformDomain.*host name/],
    ["a logger without error()", { logger: { info: () => {} } }, /logger.*`info` and `error`/],
    ["SNS without topics", { sns: {} }, /sns\.topicArns.*arn:aws:sns/],
    ["SNS with no topic", { sns: { topicArns: [] } }, /sns\.topicArns/],
    ["SNS with a topic name for an ARN", { sns: { topicArns: ["ses-feedback"] } }, /sns\.topicArns/],
  ])("refuses %s with a message that says what to pass", (_name, changes, message) => {
    expect(() => create(changes)).toThrow(TypeError);
    expect(() => create(changes)).toThrow(message);
  });

  it("warns at start when unverified senders would be rewritten to localhost or an IP address", async () => {
    for (const [options, warned] of [
      [{ baseUrl: "http://localhost:3000" }, true],
      [{ baseUrl: "http://127.0.0.1:3000" }, true],
      [{ baseUrl: "https://mail.example.com", platformDomain: "10.0.0.7" }, true],
      [{ baseUrl: "https://mail.example.com" }, false],
    ] as const) {
      const lines: string[] = [];
      const mailpulse = create({
        ...options,
        logger: { info: (line: string) => lines.push(line), error: () => {} },
      });
      expect(lines.some((line) => line.includes("receiving servers refuse"))).toBe(false);
      await mailpulse.start();
      await mailpulse.start();
      await mailpulse.stop();
      expect(
        lines.filter((line) => line.includes("receiving servers refuse")).length,
        JSON.stringify(options),
      ).toBe(warned ? 1 : 0);
    }
  });

  it("warns at start when one-click unsubscribe URLs would be http:// on a host that is not loopback", async () => {
    for (const [baseUrl, warned] of [
      ["http://mail.example.com", true],
      ["http://10.0.0.7:3000", true],
      ["http://localhost:3000", false],
      ["http://127.0.0.1:3000", false],
      ["http://[::1]:3000", false],
      ["https://mail.example.com", false],
    ] as const) {
      const lines: string[] = [];
      const mailpulse = create({
        baseUrl,
        platformDomain: "mail.example.com",
        logger: { info: (line: string) => lines.push(line), error: () => {} },
      });
      await mailpulse.start();
      await mailpulse.start();
      await mailpulse.stop();
      expect(lines.filter((line) => line.includes("RFC 8058 requires HTTPS")).length, baseUrl).toBe(
        warned ? 1 : 0,
      );
    }
  });
});
