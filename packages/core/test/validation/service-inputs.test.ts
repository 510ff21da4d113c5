/**
 * Service inputs have one contract, checked twice over: `tsc` refuses a wrong input from
 * TypeScript callers (each `@ts-expect-error` below fails `npm run typecheck` the day the type
 * accepts it), and the service's schema refuses it at run time from everyone else, with a message
 * about the call (not about HTTP) and the problems listed field by field.
 */
import { createMailPulse, isMailPulseError, type MailPulse, type Storage } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type {
  CreateCampaignInput,
  createCampaignSchema,
} from "../../src/services/campaigns/campaign-input.js";
import type { ContactListInput, contactListSchema } from "../../src/services/contacts/contact-list-input.js";
import type {
  RegisterEmailInput,
  registerEmailSchema,
  SendEmailInput,
  sendEmailSchema,
} from "../../src/services/sending/send-input.js";

describe("service inputs", () => {
  let storage: Storage;
  let mailpulse: MailPulse;
  let organizationId: string;

  beforeAll(async () => {
    storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    mailpulse = createMailPulse({ storage, baseUrl: "http://x.test", logger: { info() {}, error() {} } });
    organizationId = (await mailpulse.organizations.create({ name: "Acme" })).id;
  });
  afterAll(async () => {
    await mailpulse?.stop();
    await storage?.close();
  });

  it("declares exactly the input types the schemas accept", () => {
    expectTypeOf<z.input<typeof sendEmailSchema>>().toEqualTypeOf<SendEmailInput>();
    expectTypeOf<z.input<typeof registerEmailSchema>>().toEqualTypeOf<RegisterEmailInput>();
    expectTypeOf<z.input<typeof createCampaignSchema>>().toEqualTypeOf<CreateCampaignInput>();
    expectTypeOf<z.input<typeof contactListSchema>>().toEqualTypeOf<ContactListInput>();
    expectTypeOf<SendEmailInput["to"]>().toEqualTypeOf<string | string[]>();
  });

  it("refuses emails.send(org, { to: 42 }) in tsc and at run time, naming the field", async () => {
    const sending = mailpulse.emails.send(organizationId, {
      from: "ann@acme.example",
      // @ts-expect-error `to` is an address or an array of addresses.
      to: 42,
      subject: "Hello",
      htmlContent: "<p>Hello</p>",
    });
    await expect(sending).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      message: 'Invalid input of emails.send: "to": must be an address string or an array of them',
      issues: [{ path: ["to"], message: "must be an address string or an array of them" }],
    });
  });

  it("lists every problem with its path, and words the message for in-process callers", async () => {
    const error = await mailpulse.emails
      .register(organizationId, {
        to: ["bob@example.com", "bob@"],
        subject: "Hi",
        // @ts-expect-error `htmlContent` is a string.
        htmlContent: null,
      })
      .catch((caught: unknown) => caught);
    expect(isMailPulseError(error, "VALIDATION_FAILED")).toBe(true);
    const { issues, message } = error as { issues: unknown[]; message: string };
    expect(issues).toEqual([
      { path: ["to", 1], message: '"bob@" domain must not be empty' },
      { path: ["htmlContent"], message: expect.any(String) },
    ]);
    expect(message).toMatch(
      /^Invalid input of emails\.register: "to\[1\]": "bob@" domain must not be empty; "htmlContent"/,
    );
    expect(message).not.toMatch(/request|body/i);
  });

  it("refuses wrong types for campaigns and contacts in tsc, and out-of-range values at run time", async () => {
    // @ts-expect-error `name` is a string.
    await expect(mailpulse.campaigns.create(organizationId, { name: 7 })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      issues: [{ path: ["name"] }],
    });
    // @ts-expect-error one argument style: (organizationId, input).
    await expect(mailpulse.stats.campaign(organizationId, "id", "7d")).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(mailpulse.organizations.create({ name: " " })).rejects.toMatchObject({
      message: 'Invalid input of organizations.create: "name": must not be empty',
    });
    // @ts-expect-error `limit` is a number.
    await mailpulse.contacts.list(organizationId, { limit: "5" });
    await expect(mailpulse.contacts.list(organizationId, { limit: 5000 })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      message: 'Invalid input of contacts.list: "limit": must be at most 1000',
    });
    await expect(mailpulse.contacts.list(organizationId, { cursor: "not-ours" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      issues: [{ path: ["cursor"] }],
    });
  });
});
