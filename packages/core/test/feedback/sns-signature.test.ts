import { signSnsEnvelope, testSnsCertificate, testSnsCertificateUrl } from "@mailpulse/testing/peers";
import { describe, expect, it } from "vitest";
import { createSnsCertificateCache } from "../../src/services/feedback/sns-certificates.js";
import {
  isSnsCertificateUrl,
  isSnsUrl,
  snsEnvelopeSchema,
  snsStringToSign,
  verifySnsSignature,
} from "../../src/services/feedback/sns-signature.js";

const notification = {
  Type: "Notification" as const,
  MessageId: "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
  TopicArn: "arn:aws:sns:us-west-2:123456789012:MyTopic",
  Subject: "My First Message",
  Message: "Hello world!",
  Timestamp: "2012-05-02T00:54:06.655Z",
  UnsubscribeURL: "https://sns.us-west-2.amazonaws.com/?Action=Unsubscribe",
};

describe("SNS signatures", () => {
  it("signs the fields AWS lists, in its order, and leaves out an absent Subject", () => {
    const envelope = snsEnvelopeSchema.parse(signSnsEnvelope(notification));
    expect(snsStringToSign(envelope)).toBe(
      "Message\nHello world!\nMessageId\n22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324\nSubject\nMy First Message\n" +
        "Timestamp\n2012-05-02T00:54:06.655Z\nTopicArn\narn:aws:sns:us-west-2:123456789012:MyTopic\nType\nNotification\n",
    );
    const { Subject: _subject, ...withoutSubject } = notification;
    expect(snsStringToSign(snsEnvelopeSchema.parse(signSnsEnvelope(withoutSubject)))).not.toContain(
      "Subject",
    );
  });

  it("verifies SignatureVersion 1 (SHA1) and 2 (SHA256), and refuses any change", () => {
    for (const version of ["1", "2"] as const) {
      const envelope = snsEnvelopeSchema.parse(signSnsEnvelope(notification, version));
      expect(verifySnsSignature(envelope, testSnsCertificate)).toBe(true);
      expect(verifySnsSignature({ ...envelope, Message: "Hello world?" }, testSnsCertificate)).toBe(false);
      expect(verifySnsSignature({ ...envelope, Subject: undefined }, testSnsCertificate)).toBe(false);
      // The other version's algorithm over the same signature.
      const other = version === "1" ? "2" : "1";
      expect(verifySnsSignature({ ...envelope, SignatureVersion: other }, testSnsCertificate)).toBe(false);
      expect(verifySnsSignature(envelope, "not a certificate")).toBe(false);
    }
  });

  it("fetches only from SNS's own hosts over https", () => {
    expect(isSnsCertificateUrl(testSnsCertificateUrl)).toBe(true);
    expect(
      isSnsCertificateUrl("https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-x.pem"),
    ).toBe(true);
    for (const url of [
      "http://sns.us-east-1.amazonaws.com/x.pem",
      "https://sns.us-east-1.amazonaws.com:8443/x.pem",
      "https://user@sns.us-east-1.amazonaws.com/x.pem",
      "https://sns.us-east-1.amazonaws.com.evil.example/x.pem",
      "https://evil.example/sns.us-east-1.amazonaws.com/x.pem",
      "https://s3.amazonaws.com/x.pem",
      "https://sns.us-east-1.amazonaws.com/x.txt",
      "not a url",
    ]) {
      expect(isSnsCertificateUrl(url), url).toBe(false);
    }
    expect(isSnsUrl("https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription")).toBe(true);
    expect(isSnsUrl(undefined)).toBe(false);
  });

  it("fetches each certificate once, shares a fetch under way, and keeps no failure", async () => {
    let calls = 0;
    let fail = true;
    const cache = createSnsCertificateCache(async (url) => {
      calls += 1;
      if (fail) throw new Error("down");
      return `pem of ${url}`;
    });
    await expect(cache.get("u")).rejects.toThrow("down");
    fail = false;
    const [first, second] = await Promise.all([cache.get("u"), cache.get("u")]);
    expect([first, second]).toEqual(["pem of u", "pem of u"]);
    expect(await cache.get("u")).toBe("pem of u");
    expect(calls).toBe(2);
  });
});
