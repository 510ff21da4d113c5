import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type SnsEnvelope,
  signSnsEnvelope,
  testSnsCertificate,
  testSnsCertificateUrl,
} from "../fixtures/sns-signing-certificate.js";
import { type ApiTestTarget, createApiClient, createTenant, type StartApiTarget } from "./api-target.js";

const topicArn = "arn:aws:sns:us-east-1:123456789012:ses-feedback";

/** `mail` of an SES notification (AWS SES developer guide, "Amazon SNS notification examples"). */
function sesMail(trackingId: string | null, destination: string[]) {
  const headers = [
    { name: "From", value: "news@acme.example" },
    { name: "To", value: destination.join(", ") },
    { name: "Subject", value: "News" },
    ...(trackingId ? [{ name: "X-MailPulse-Tracking-Id", value: trackingId }] : []),
  ];
  return {
    timestamp: "2026-05-01T07:59:58.000Z",
    source: "news@acme.example",
    sourceArn: "arn:aws:ses:us-east-1:123456789012:identity/acme.example",
    sourceIp: "127.0.3.0",
    sendingAccountId: "123456789012",
    messageId: "00000137860315fd-34208509-5b74-41f3-95c5-22c1edc3c924-000000",
    destination,
    headersTruncated: false,
    headers,
    commonHeaders: { from: ["news@acme.example"], to: destination, subject: "News" },
  };
}

/** An SES bounce notification, as SES's feedback notifications word it. */
function sesBounce(
  trackingId: string | null,
  bounceType: "Permanent" | "Transient" | "Undetermined",
  recipients: Array<{ emailAddress: string; status?: string; diagnosticCode?: string }>,
) {
  return JSON.stringify({
    notificationType: "Bounce",
    bounce: {
      bounceType,
      bounceSubType: bounceType === "Permanent" ? "General" : "MailboxFull",
      bouncedRecipients: recipients.map((recipient) => ({ action: "failed", ...recipient })),
      timestamp: "2026-05-01T08:00:01.000Z",
      feedbackId: "00000137860315fd-869464a4-8680-4114-98d3-716fe35851f9-000000",
      remoteMtaIp: "127.0.2.0",
      reportingMTA: "dsn; a8-70.smtp-out.amazonses.com",
    },
    mail: sesMail(
      trackingId,
      recipients.map((recipient) => recipient.emailAddress),
    ),
  });
}

/** An SES complaint, as event publishing (a configuration set) words it: `eventType`. */
function sesComplaint(trackingId: string, address: string, feedbackType?: string) {
  return JSON.stringify({
    eventType: "Complaint",
    complaint: {
      complainedRecipients: [{ emailAddress: address }],
      timestamp: "2026-05-01T08:05:00.000Z",
      feedbackId: "0000013786031775-163e3910-53eb-4c8e-a04a-f29debf88a84-000000",
      userAgent: "Mozilla/5.0",
      ...(feedbackType ? { complaintFeedbackType: feedbackType } : {}),
      arrivalDate: "2026-05-01T08:04:00.000Z",
    },
    mail: sesMail(trackingId, [address]),
  });
}

function notification(message: string, overrides: Partial<SnsEnvelope> = {}) {
  return {
    Type: "Notification" as const,
    MessageId: `msg-${Math.random().toString(36).slice(2)}`,
    TopicArn: topicArn,
    Message: message,
    Timestamp: "2026-05-01T08:00:02.000Z",
    UnsubscribeURL: "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=x",
    ...overrides,
  };
}

/**
 * `POST /api/sns` over real HTTP: Amazon SES bounces and complaints delivered by SNS, signed with a
 * local stand-in for SNS's certificate (the fetcher is injected: nothing leaves the machine), the
 * subscription confirmed, forged and foreign messages refused. What a notification does is asserted
 * on the suppression list (docs/deliverability.md).
 */
export function snsContract(start: StartApiTarget): void {
  describe("Amazon SES notifications through SNS", () => {
    let target: ApiTestTarget;
    let without: ApiTestTarget;
    let call: ReturnType<typeof createApiClient>;
    const fetchedCertificates: string[] = [];
    const visited: string[] = [];
    beforeAll(async () => {
      [target, without] = await Promise.all([
        start({
          platformDomain: "mailpulse.test",
          sns: {
            topicArns: [topicArn],
            fetchCertificate: async (url) => {
              fetchedCertificates.push(url);
              if (url !== testSnsCertificateUrl) throw new Error(`no certificate at ${url}`);
              return testSnsCertificate;
            },
            openSubscribeUrl: async (url) => {
              visited.push(url);
            },
          },
        }),
        start({}),
      ]);
      call = createApiClient(target.baseUrl);
    });
    afterAll(async () => {
      await Promise.all([target?.close(), without?.close()]);
    });

    /** Posts an SNS message as SNS does: JSON under `text/plain`, with its headers. */
    function post(body: SnsEnvelope | string, to: ApiTestTarget = target) {
      const text = typeof body === "string" ? body : JSON.stringify(body);
      const type = typeof body === "string" ? "Notification" : body.Type;
      return createApiClient(to.baseUrl)("POST", "/api/sns", {
        raw: text,
        headers: {
          "content-type": "text/plain; charset=UTF-8",
          "x-amz-sns-message-type": type,
          "x-amz-sns-topic-arn": topicArn,
        },
      });
    }

    async function sentEmail() {
      const { key } = await createTenant(target.mailpulse);
      const sent = await call("POST", "/api/send", {
        key,
        json: {
          from: "news@acme.example",
          to: ["Ann <ann@example.com>", "dee@example.com"],
          cc: "carl@example.com",
          subject: "News",
          htmlContent: "<p>News</p>",
        },
      });
      expect(sent.status).toBe(200);
      return { key, emailId: sent.body.emailId as string, trackingId: sent.body.emailTrackingId as string };
    }

    async function suppressed(key: string) {
      return (await call("GET", "/api/suppressions", { key })).body.data.map(
        (entry: {
          address: string;
          reason: string;
          sourceEmailId: string;
          status: string;
          diagnostic: string;
        }) => ({
          address: entry.address,
          reason: entry.reason,
          sourceEmailId: entry.sourceEmailId,
          status: entry.status,
          diagnostic: entry.diagnostic,
        }),
      );
    }

    it("records a permanent SES bounce (SignatureVersion 2) as a hard bounce of each recipient named", async () => {
      const { key, emailId, trackingId } = await sentEmail();
      const message = sesBounce(trackingId, "Permanent", [
        { emailAddress: "ann@example.com", status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" },
        // SES may name a recipient by display name and address, and in another case.
        { emailAddress: "Dee <DEE@example.com>", status: "5.1.1" },
        // Not a recipient of this email: a notification cannot suppress a stranger.
        { emailAddress: "stranger@example.com", status: "5.1.1" },
      ]);
      const answer = await post(signSnsEnvelope(notification(message), "2"));
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true });
      expect(await suppressed(key)).toEqual([
        {
          address: "ann@example.com",
          reason: "hard_bounce",
          sourceEmailId: emailId,
          status: "5.1.1",
          diagnostic: "smtp; 550 5.1.1 user unknown",
        },
        {
          address: "dee@example.com",
          reason: "hard_bounce",
          sourceEmailId: emailId,
          status: "5.1.1",
          diagnostic: null,
        },
      ]);
      // SNS may deliver a message twice: the second changes nothing.
      expect((await post(signSnsEnvelope(notification(message), "2"))).status).toBe(200);
      expect(await suppressed(key)).toHaveLength(2);
    });

    it("records an SES complaint (SignatureVersion 1) and takes abuse when SES names no feedback type", async () => {
      const { key, emailId, trackingId } = await sentEmail();
      const answer = await post(
        signSnsEnvelope(notification(sesComplaint(trackingId, "carl@example.com")), "1"),
      );
      expect(answer.status).toBe(200);
      expect(await suppressed(key)).toEqual([
        {
          address: "carl@example.com",
          reason: "complaint",
          sourceEmailId: emailId,
          status: null,
          diagnostic: null,
        },
      ]);
    });

    it("does not suppress on transient and undetermined bounces, nor on deliveries", async () => {
      const { key, trackingId } = await sentEmail();
      for (const bounceType of ["Transient", "Undetermined"] as const) {
        const message = sesBounce(trackingId, bounceType, [
          { emailAddress: "ann@example.com", status: "4.2.2" },
        ]);
        expect((await post(signSnsEnvelope(notification(message)))).status).toBe(200);
      }
      const delivery = JSON.stringify({
        notificationType: "Delivery",
        delivery: {
          timestamp: "2026-05-01T08:00:01.000Z",
          recipients: ["ann@example.com"],
          smtpResponse: "250 ok",
        },
        mail: sesMail(trackingId, ["ann@example.com"]),
      });
      expect((await post(signSnsEnvelope(notification(delivery)))).status).toBe(200);
      expect(await suppressed(key)).toEqual([]);
    });

    it("answers 200 and records nothing for a notification that names no email of MailPulse's", async () => {
      const { key } = await sentEmail();
      const headerless = sesBounce(null, "Permanent", [{ emailAddress: "ann@example.com", status: "5.1.1" }]);
      expect((await post(signSnsEnvelope(notification(headerless)))).status).toBe(200);
      const unknown = sesBounce("AAAAAAAAAAAAAAAAAAAAAA", "Permanent", [{ emailAddress: "ann@example.com" }]);
      expect((await post(signSnsEnvelope(notification(unknown)))).status).toBe(200);
      expect((await post(signSnsEnvelope(notification("not an SES event")))).status).toBe(200);
      expect(await suppressed(key)).toEqual([]);
    });

    it("refuses tampered, foreign and malformed messages and records nothing", async () => {
      const { key, trackingId } = await sentEmail();
      const message = sesBounce(trackingId, "Permanent", [
        { emailAddress: "ann@example.com", status: "5.1.1" },
      ]);
      const signed = signSnsEnvelope(notification(message));
      // The message altered after signing: another recipient's bounce.
      const tampered = { ...signed, Message: signed.Message.replace("ann@example.com", "dee@example.com") };
      const refusals: Array<[SnsEnvelope | string, number, RegExp]> = [
        [tampered, 403, /signature does not verify/],
        [{ ...signed, SignatureVersion: "3" }, 403, /signature does not verify/],
        [{ ...signed, Signature: "bm90IGEgc2lnbmF0dXJl" }, 403, /signature does not verify/],
        // Signed with the right key, but by a topic the host did not allow.
        [signSnsEnvelope(notification(message, { TopicArn: `${topicArn}-other` })), 403, /topic not allowed/],
        // A certificate from anywhere but SNS is never fetched.
        [
          signSnsEnvelope(notification(message, { SigningCertURL: "https://evil.example/cert.pem" })),
          403,
          /not an Amazon SNS certificate URL/,
        ],
        [
          signSnsEnvelope(
            notification(message, { SigningCertURL: "http://sns.us-east-1.amazonaws.com/cert.pem" }),
          ),
          403,
          /not an Amazon SNS certificate URL/,
        ],
        [
          signSnsEnvelope(
            notification(message, {
              SigningCertURL: "https://sns.us-east-1.amazonaws.com.evil.example/c.pem",
            }),
          ),
          403,
          /not an Amazon SNS certificate URL/,
        ],
        ["{not json", 400, /Invalid JSON/],
        ['{"Type":"Notification"}', 400, /not an Amazon SNS message/],
      ];
      for (const [body, status, error] of refusals) {
        const answer = await post(body);
        expect(answer.status, JSON.stringify(body).slice(0, 200)).toBe(status);
        expect(answer.body.error).toMatch(error);
      }
      expect(fetchedCertificates.every((url) => url === testSnsCertificateUrl)).toBe(true);
      expect(await suppressed(key)).toEqual([]);
    });

    it("fetches the signing certificate once and keeps it", async () => {
      const before = fetchedCertificates.length;
      for (let round = 0; round < 3; round++) {
        expect((await post(signSnsEnvelope(notification("{}")))).status).toBe(200);
      }
      // Every earlier test used the same URL: fetched once at most, over the whole file.
      expect(fetchedCertificates.length - before).toBe(0);
      expect(fetchedCertificates).toEqual([testSnsCertificateUrl]);
    });

    it("confirms a subscription of an allowed topic by visiting its SubscribeURL, and only an SNS one", async () => {
      const confirmation = (subscribeUrl: string) =>
        signSnsEnvelope({
          Type: "SubscriptionConfirmation",
          MessageId: "165545c9-2a5c-472c-8df2-7ff2be2b3b1b",
          Token:
            "2336412f37fb687f5d51e6e241d09c805a5a57b30d712f794cc5f6a988666d92768dd60a747ba6f3beb71854e285d6ad02428b09ceece29417f1f02d609c582afbacc99c583a916b9981dd2728f4ae6fdb82efd087cc3b7849e05798d2d2785c03b0879594eeac82c01f235d0e717736",
          TopicArn: topicArn,
          Message: `You have chosen to subscribe to the topic ${topicArn}.`,
          SubscribeURL: subscribeUrl,
          Timestamp: "2026-05-01T08:00:00.000Z",
        });
      const genuine = `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${topicArn}&Token=2336`;
      expect((await post(confirmation(genuine))).status).toBe(200);
      expect((await post(confirmation("https://evil.example/?Action=ConfirmSubscription"))).status).toBe(200);
      expect(visited).toEqual([genuine]);
    });

    it("answers 404 when the instance has no sns option", async () => {
      const answer = await post(signSnsEnvelope(notification("{}")), without);
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatch(/sns option/);
    });
  });
}
