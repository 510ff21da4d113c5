import { MailPulseError } from "../errors.js";
import { errorBodySchema, successSchema } from "../http/answer-schemas.js";
import { jsonResponse } from "../http/json-response.js";
import { readBodyText } from "../http/read-body.js";
import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import type { SnsNotificationService } from "../services/sns-notification-service.js";

/**
 * `POST {basePath}/sns`: Amazon SES bounce and complaint notifications delivered by SNS
 * (docs/deliverability.md), without an API key: the SNS signature and the topic allow-list
 * authenticate. `service` is undefined when `MailPulseOptions.sns` is not set; the route then
 * answers 404, as if it did not exist. Bodies are limited to the handler's `maxBodyBytes` (default
 * 1 MiB; an SNS message is at most 256 KB).
 */
export function snsRoutes(service: SnsNotificationService | undefined, maxBodyBytes: number) {
  return [
    defineRoute({
      method: "POST",
      path: "/sns",
      auth: "none",
      docs: {
        tags: ["Delivery feedback"],
        operationId: "receiveSnsNotification",
        summary: "Amazon SES notifications through SNS",
        description:
          "The HTTPS endpoint of an SNS subscription, for hosts that send through Amazon SES. Takes the message as SNS posts it (JSON sent as `text/plain`), verifies its signature (SignatureVersion 1 or 2, with the certificate from `https://sns.<region>.amazonaws.com/...pem`, fetched once and cached) and its topic (`sns.topicArns`). A `SubscriptionConfirmation` is confirmed by visiting its `SubscribeURL`. A `Notification` carrying an SES `Bounce` records a bounce per bounced recipient (`Permanent` hard, `Transient` and `Undetermined` soft), a `Complaint` a complaint per complained recipient; the email is the one named by the `X-MailPulse-Tracking-Id` header among `mail.headers` (turn on original headers in SES). Other events and unattributed notifications are logged and answered 200 all the same, so SNS does not retry them. No API key: the signature is the authority. 404 when the instance has no `sns` option.",
        ownRequestBody: {
          required: true,
          content: {
            "text/plain": {
              schema: { type: "string", description: "The SNS message, a JSON object." },
              example:
                '{"Type":"Notification","MessageId":"…","TopicArn":"arn:aws:sns:us-east-1:123456789012:ses-feedback","Message":"{\\"notificationType\\":\\"Bounce\\",…}","Timestamp":"2026-05-01T08:00:00.000Z","SignatureVersion":"2","Signature":"…","SigningCertURL":"https://sns.us-east-1.amazonaws.com/SimpleNotificationService-….pem"}',
            },
          },
        },
        responses: {
          "200": jsonAnswer(
            "Received: recorded, confirmed, or logged and left alone (another event type, an email not found).",
            successSchema,
          ),
          "400": errorDocs("A body that is not JSON, or not an SNS message.", {
            invalidJson: "Invalid JSON in request body: Unexpected token 'x', \"x\" is not valid JSON",
            notSns: "The body is not an Amazon SNS message",
          }),
          "403": errorDocs("A topic not in `sns.topicArns`, or a signature that does not verify.", {
            topic: "SNS topic not allowed: add it to sns.topicArns",
            signature: "The SNS signature does not verify",
            certificateUrl: "SigningCertURL is not an Amazon SNS certificate URL",
          }),
          "404": {
            description: "The instance has no `sns` option.",
            content: { "application/json": { schema: errorBodySchema } },
          },
          "413": errorDocs("A body over 1 MiB.", {
            tooLarge: "Request body exceeds the limit of 1048576 bytes",
          }),
          "503": errorDocs("SNS's certificate or subscribe URL could not be fetched: SNS retries.", {
            certificate: "The SNS signing certificate could not be fetched",
          }),
        },
      },
      handle: async ({ request }) => {
        if (!service)
          throw new MailPulseError("NOT_FOUND", "SNS notifications are not enabled: set the sns option");
        await service.receive(await readBodyText(request, maxBodyBytes));
        return jsonResponse({ success: true });
      },
    }),
  ];
}
