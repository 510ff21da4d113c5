import { z } from "zod";
import { findNul, nulMessage } from "../validation/no-nul.js";
import { maxMetadataBytes } from "./send-limits.js";

/**
 * `metadata`: any JSON object of at most {@link maxMetadataBytes} bytes once serialised. Checked
 * in place, never copied: a copy made by assignment would turn a `"__proto__"` key (an ordinary
 * key in JSON) into the copy's prototype and lose it, so the caller's keys are kept as data.
 */
export const metadataSchema = z
  .custom<Record<string, unknown>>()
  .superRefine((value: unknown, context) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      context.addIssue({ code: "custom", message: "must be a JSON object" });
      return;
    }
    let json: string;
    try {
      json = JSON.stringify(value);
    } catch {
      context.addIssue({ code: "custom", message: "must be serialisable as JSON" });
      return;
    }
    if (Buffer.byteLength(json, "utf8") > maxMetadataBytes) {
      context.addIssue({ code: "custom", message: `must be at most ${maxMetadataBytes} bytes as JSON` });
      return;
    }
    const nulAt = findNul(value);
    if (nulAt) context.addIssue({ code: "custom", message: nulMessage, path: nulAt });
  })
  // A z.custom: zod cannot derive its JSON Schema, so it is written here.
  .meta({
    id: "Metadata",
    type: "object",
    additionalProperties: true,
    description:
      "Custom data stored with the email and included in its webhook events; at most 16 KiB once serialised as JSON.",
  });
