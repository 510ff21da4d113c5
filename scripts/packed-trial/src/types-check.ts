// Names a new user reaches for, from every entry point, without top-level await (node10 + commonjs).
import { mailpulseErrorHandler, mailpulseExpress } from "@mailpulse/adapter-express";
import { mailpulseFastify } from "@mailpulse/adapter-fastify";
import {
  type CampaignService,
  createMailPulse,
  type EmailService,
  isMailPulseError,
  type MailPulse,
  type SendEmailInput,
  type SendEmailResult,
} from "@mailpulse/core";
import { createNodeListener } from "@mailpulse/core/node";
import type { Storage as StoragePort } from "@mailpulse/core/storage";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { createTestMailPulse as createSqliteKit } from "@mailpulse/storage-sqlite/testing";
import { createTestClock, createTestMailPulse } from "@mailpulse/testing";

export function wire(): MailPulse {
  const storage: StoragePort = sqliteStorage({ filename: ":memory:" });
  return createMailPulse({ storage, baseUrl: "https://x.example" });
}
export const input: SendEmailInput = {
  from: "a@x.example",
  to: "b@x.example",
  subject: "s",
  htmlContent: "<p/>",
};
export async function send(service: EmailService): Promise<SendEmailResult> {
  return service.send("org", input);
}
export type Campaigns = CampaignService;
export const pieces = [
  mailpulseExpress,
  mailpulseErrorHandler,
  mailpulseFastify,
  createNodeListener,
  createTestClock,
  createTestMailPulse,
  createSqliteKit,
  postgresStorage,
  isMailPulseError,
];
