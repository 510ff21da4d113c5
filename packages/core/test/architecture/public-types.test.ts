import type {
  ApiKeyRecord,
  CampaignService,
  ContactService,
  DnsResolver,
  DomainOptions,
  EmailService,
  Logger,
  MailPulse,
  MailPulseOptions,
  Organization,
  SendEmailInput,
  SendEmailResult,
  StatsService,
  StructuredLogger,
} from "@mailpulse/core";
import type { FastifyBaseLogger } from "fastify";
import { describe, expectTypeOf, it } from "vitest";

// A host app names these types in its own code (a wrapper around send, a mock of a service, an
// options object built elsewhere): each must be importable from "@mailpulse/core" and be the very
// type the instance uses. Checked by the type checker (`npm run typecheck` covers test files).
describe("the public types of @mailpulse/core", () => {
  it("are the ones the services take and return", () => {
    expectTypeOf<Parameters<MailPulse["emails"]["send"]>[1]>().toEqualTypeOf<SendEmailInput>();
    expectTypeOf<Awaited<ReturnType<MailPulse["emails"]["send"]>>>().toEqualTypeOf<SendEmailResult>();
    expectTypeOf<MailPulse["emails"]>().toEqualTypeOf<EmailService>();
    expectTypeOf<MailPulse["campaigns"]>().toEqualTypeOf<CampaignService>();
    expectTypeOf<MailPulse["stats"]>().toEqualTypeOf<StatsService>();
    expectTypeOf<MailPulse["contacts"]>().toEqualTypeOf<ContactService>();
    expectTypeOf<Awaited<ReturnType<MailPulse["organizations"]["create"]>>>().toEqualTypeOf<Organization>();
    expectTypeOf<
      Awaited<ReturnType<MailPulse["apiKeys"]["create"]>>["apiKey"]
    >().toEqualTypeOf<ApiKeyRecord>();
  });

  it("name every part of the options", () => {
    expectTypeOf<NonNullable<MailPulseOptions["domains"]>>().toEqualTypeOf<DomainOptions>();
    expectTypeOf<NonNullable<DomainOptions["dnsResolver"]>>().toEqualTypeOf<DnsResolver>();
    expectTypeOf<NonNullable<MailPulseOptions["logger"]>>().toEqualTypeOf<Logger>();
  });

  it("accept Fastify's app.log and the console as the logger", () => {
    expectTypeOf<FastifyBaseLogger>().toExtend<StructuredLogger>();
    // A logger the host typed as structured is accepted as it is.
    expectTypeOf<StructuredLogger>().toExtend<NonNullable<MailPulseOptions["logger"]>>();
    expectTypeOf<FastifyBaseLogger>().toExtend<NonNullable<MailPulseOptions["logger"]>>();
    expectTypeOf<Console>().toExtend<NonNullable<MailPulseOptions["logger"]>>();
  });
});
