import { describe, expect, it } from "vitest";
import { readSesEvent } from "../../src/services/feedback/ses-event.js";

const mail = (headers: Array<{ name: string; value: string }>) => ({ messageId: "ses-1", headers });

describe("readSesEvent", () => {
  it("maps SES bounce types: Permanent hard, Transient and Undetermined soft", () => {
    for (const [sesType, bounceType] of [
      ["Permanent", "hard"],
      ["Transient", "soft"],
      ["Undetermined", "soft"],
    ] as const) {
      const event = readSesEvent(
        JSON.stringify({
          notificationType: "Bounce",
          bounce: {
            bounceType: sesType,
            timestamp: "2026-05-01T08:00:01.000Z",
            bouncedRecipients: [
              { emailAddress: '"Ann" <ann@example.com>', status: "5.1.1", diagnosticCode: " smtp; 550 " },
              { emailAddress: "bob@example.com" },
            ],
          },
          mail: mail([{ name: "x-mailpulse-tracking-id", value: "tid" }]),
        }),
      );
      expect(event).toEqual({
        kind: "bounce",
        trackingId: "tid",
        sesMessageId: "ses-1",
        bounces: [
          {
            recipient: "ann@example.com",
            bounceType,
            status: "5.1.1",
            diagnostic: "smtp; 550",
            occurredAt: new Date("2026-05-01T08:00:01.000Z"),
          },
          {
            recipient: "bob@example.com",
            bounceType,
            status: null,
            diagnostic: null,
            occurredAt: expect.any(Date),
          },
        ],
      });
    }
  });

  it("reads complaints from event publishing (eventType), abuse when SES gives no type", () => {
    const complaint = (extra: object) =>
      readSesEvent(
        JSON.stringify({
          eventType: "Complaint",
          complaint: { complainedRecipients: [{ emailAddress: "ann@example.com" }], ...extra },
          mail: mail([]),
        }),
      );
    expect(complaint({})).toMatchObject({ kind: "complaint", trackingId: null, feedbackType: "abuse" });
    expect(complaint({ complaintFeedbackType: "Fraud" })).toMatchObject({ feedbackType: "fraud" });
    expect(complaint({})).toMatchObject({ recipients: ["ann@example.com"] });
  });

  it("says other events are other, and what is not an SES event is undefined", () => {
    expect(
      readSesEvent(JSON.stringify({ notificationType: "Delivery", delivery: {}, mail: mail([]) })),
    ).toEqual({
      kind: "other",
      type: "Delivery",
    });
    for (const message of ["Hello world!", "{}", "[]", "null", '{"notificationType":"Bounce","bounce":{}}']) {
      expect(readSesEvent(message), message).toBeUndefined();
    }
  });
});
