import { createPublicKey, verify } from "node:crypto";
import { z } from "zod";

/**
 * Amazon SNS's HTTP(S) message, as SNS posts it (a JSON object sent as `text/plain`), with what
 * its signature check needs. Unknown fields are kept out of the check, as SNS's own are listed.
 */
export const snsEnvelopeSchema = z.object({
  Type: z.enum(["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"]),
  MessageId: z.string().min(1),
  TopicArn: z.string().min(1),
  Message: z.string(),
  Timestamp: z.string().min(1),
  Subject: z.string().optional(),
  Token: z.string().optional(),
  SubscribeURL: z.string().optional(),
  UnsubscribeURL: z.string().optional(),
  SignatureVersion: z.string(),
  Signature: z.string().min(1),
  SigningCertURL: z.string(),
});

/** A parsed SNS message. */
export type SnsEnvelope = z.infer<typeof snsEnvelopeSchema>;

/** The keys SNS signs per message type, in its (byte) order; absent optional keys are skipped. */
const signedKeys: Record<SnsEnvelope["Type"], readonly (keyof SnsEnvelope)[]> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: [
    "Message",
    "MessageId",
    "SubscribeURL",
    "Timestamp",
    "Token",
    "TopicArn",
    "Type",
  ],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
};

/**
 * The text SNS signs: `key\nvalue\n` for each signed key present (AWS, "Verifying the
 * signatures of Amazon SNS messages").
 */
export function snsStringToSign(envelope: SnsEnvelope): string {
  let text = "";
  for (const key of signedKeys[envelope.Type]) {
    const value = envelope[key];
    if (value !== undefined) text += `${key}\n${value}\n`;
  }
  return text;
}

// SNS's own hosts: `sns.<region>.amazonaws.com`, and `.com.cn` in the China regions.
const snsHost = /^sns\.[a-z0-9-]+\.amazonaws\.com(?:\.cn)?$/;

/**
 * Whether `url` is an SNS address MailPulse may fetch: https, on `sns.<region>.amazonaws.com`
 * (or `.com.cn`), default port, no credentials. Anything else in a message (which anyone can post)
 * is never fetched: that is what makes the certificate SNS's, and keeps the route from being a
 * way to make the server request an arbitrary URL.
 */
export function isSnsUrl(url: string | undefined): boolean {
  if (url === undefined) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === "https:" &&
    parsed.port === "" &&
    parsed.username === "" &&
    parsed.password === "" &&
    snsHost.test(parsed.hostname)
  );
}

/** {@link isSnsUrl}, and a path ending in `.pem`: where SNS publishes its signing certificates. */
export function isSnsCertificateUrl(url: string): boolean {
  return isSnsUrl(url) && new URL(url).pathname.endsWith(".pem");
}

/**
 * Whether `envelope`'s signature is valid under the certificate (PEM): SignatureVersion `1` is
 * SHA1withRSA, `2` SHA256withRSA, over {@link snsStringToSign}. False for another version, a
 * malformed signature or certificate.
 */
export function verifySnsSignature(envelope: SnsEnvelope, certificatePem: string): boolean {
  const algorithm =
    envelope.SignatureVersion === "1" ? "sha1" : envelope.SignatureVersion === "2" ? "sha256" : undefined;
  if (!algorithm) return false;
  try {
    const key = createPublicKey(certificatePem);
    return verify(
      algorithm,
      Buffer.from(snsStringToSign(envelope), "utf8"),
      key,
      Buffer.from(envelope.Signature, "base64"),
    );
  } catch {
    return false;
  }
}
