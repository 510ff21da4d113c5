import { createRecipientToken } from "@mailpulse/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiTestTarget, createApiClient, createTenant, type StartApiTarget } from "./api-target.js";

/**
 * The one-click unsubscribe URL (`/api/u/<token>`, RFC 8058) over real HTTP: the POST a mail
 * client sends (`curl -X POST -d List-Unsubscribe=One-Click <url>`) unsubscribes at once, a GET
 * (what link scanners do) shows a page and changes nothing, the page's button unsubscribes with
 * source `page`, and a forged token is a 404. What an unsubscribe does is asserted on the
 * suppression list (docs/deliverability.md).
 */
export function unsubscribeContract(start: StartApiTarget): void {
  describe("one-click unsubscribe", () => {
    let target: ApiTestTarget;
    let call: ReturnType<typeof createApiClient>;
    beforeAll(async () => {
      target = await start({ platformDomain: "mailpulse.test" });
      call = createApiClient(target.baseUrl);
    });
    afterAll(async () => {
      await target?.close();
    });

    /** A tenant, an email sent to ann (to) and carl (cc), and the unsubscribe URL of each. */
    async function sentEmail() {
      const { key } = await createTenant(target.mailpulse);
      const sent = await call("POST", "/api/send", {
        key,
        json: {
          from: "news@acme.example",
          to: "Ann <ann@example.com>",
          cc: "carl@example.com",
          subject: "News",
          htmlContent: "<p>News</p>",
        },
      });
      expect(sent.status).toBe(200);
      const signingKey = await target.mailpulse.signingKey.key();
      const pathOf = (recipientIndex: number) =>
        `/api/u/${createRecipientToken({ trackingId: sent.body.emailTrackingId, recipientIndex }, "unsubscribe", signingKey)}`;
      return {
        key,
        emailId: sent.body.emailId as string,
        trackingId: sent.body.emailTrackingId as string,
        annPath: pathOf(0),
        carlPath: pathOf(1),
      };
    }

    async function suppressed(key: string) {
      const list = await call("GET", "/api/suppressions", { key });
      return list.body.data.map((entry: { address: string; reason: string; sourceEmailId: string }) => ({
        address: entry.address,
        reason: entry.reason,
        sourceEmailId: entry.sourceEmailId,
      }));
    }

    /** A form POST as `curl -d` and mail clients send it: no cookies, no redirect followed. */
    function postForm(path: string, body: string | FormData, contentType?: string) {
      const headers: Record<string, string> = contentType ? { "content-type": contentType } : {};
      return fetch(`${target.baseUrl}${path}`, { method: "POST", body, headers, redirect: "manual" });
    }

    it("unsubscribes at once on the RFC 8058 one-click POST, idempotently, and only that recipient", async () => {
      const { key, emailId, annPath } = await sentEmail();
      // What `curl -X POST -d List-Unsubscribe=One-Click <url>` sends.
      const first = await postForm(
        annPath,
        "List-Unsubscribe=One-Click",
        "application/x-www-form-urlencoded",
      );
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ success: true });
      expect(first.headers.get("set-cookie")).toBeNull();
      expect(first.headers.get("location")).toBeNull();
      expect(await suppressed(key)).toEqual([
        { address: "ann@example.com", reason: "unsubscribe", sourceEmailId: emailId },
      ]);

      const again = await postForm(
        annPath,
        "List-Unsubscribe=One-Click",
        "application/x-www-form-urlencoded",
      );
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ success: true });
      expect(await suppressed(key)).toHaveLength(1);
    });

    it("takes the one-click body as multipart/form-data, as some clients send it, and the cc's own token", async () => {
      const { key, emailId, carlPath } = await sentEmail();
      const form = new FormData();
      form.set("List-Unsubscribe", "One-Click");
      const answer = await postForm(carlPath, form);
      expect(answer.status).toBe(200);
      expect(await suppressed(key)).toEqual([
        { address: "carl@example.com", reason: "unsubscribe", sourceEmailId: emailId },
      ]);
    });

    it("answers GET and HEAD with a page of one button and never unsubscribes on them", async () => {
      const { key, annPath } = await sentEmail();
      // A link scanner fetches the URL, more than once.
      for (let round = 0; round < 3; round++) {
        const page = await fetch(`${target.baseUrl}${annPath}`, { redirect: "manual" });
        expect(page.status).toBe(200);
        expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
        expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
        expect(page.headers.get("x-content-type-options")).toBe("nosniff");
        expect(page.headers.get("referrer-policy")).toBe("no-referrer");
        expect(page.headers.get("cache-control")).toBe("no-store");
        const html = await page.text();
        expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
        expect(html).toContain("<title>Unsubscribe</title>");
        expect(html).toContain("ann@example.com");
        expect(html).not.toMatch(/<script|<link|<img|src=|https?:\/\//i);
        expect(html.match(/<form method="post">/g)).toHaveLength(1);
        expect(html.match(/<button type="submit">Unsubscribe<\/button>/g)).toHaveLength(1);
        expect(html).toContain('<input type="hidden" name="source" value="page">');
      }
      const head = await fetch(`${target.baseUrl}${annPath}`, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe("");
      expect(await suppressed(key)).toEqual([]);
    });

    it("unsubscribes from the page's button with source page and answers a page saying so", async () => {
      const { key, emailId, annPath } = await sentEmail();
      // What a browser sends for the page's form.
      const answer = await postForm(annPath, "source=page", "application/x-www-form-urlencoded");
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(answer.headers.get("cache-control")).toBe("no-store");
      const html = await answer.text();
      expect(html).toContain("<title>You are unsubscribed</title>");
      expect(html).toContain("ann@example.com");
      expect(await suppressed(key)).toEqual([
        { address: "ann@example.com", reason: "unsubscribe", sourceEmailId: emailId },
      ]);
    });

    it("refuses forged, altered, other-purpose and unknown tokens with 404 and records nothing", async () => {
      const { key, annPath, trackingId } = await sentEmail();
      const signingKey = await target.mailpulse.signingKey.key();
      const token = annPath.slice("/api/u/".length);
      const forged = [
        // One character of the signature changed (not the last: its final bit is padding).
        `${token.slice(0, 40)}${token[40] === "a" ? "b" : "a"}${token.slice(41)}`,
        // Signed with another key.
        createRecipientToken({ trackingId, recipientIndex: 0 }, "unsubscribe", new Uint8Array(32).fill(7)),
        // This instance's key, but made for the return path.
        createRecipientToken({ trackingId, recipientIndex: 0 }, "return-path", signingKey),
        // Genuine, but past the email's two recipients.
        createRecipientToken({ trackingId, recipientIndex: 2 }, "unsubscribe", signingKey),
        // Genuine, for an email that does not exist.
        createRecipientToken(
          { trackingId: "AAAAAAAAAAAAAAAAAAAAAA", recipientIndex: 0 },
          "unsubscribe",
          signingKey,
        ),
        "not-a-token",
        "",
        "x".repeat(300),
      ];
      for (const bad of forged) {
        const page = await fetch(`${target.baseUrl}/api/u/${bad}`);
        expect(page.status, bad).toBe(404);
        expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(await page.text()).toContain("<title>Link not valid</title>");
        const oneClick = await postForm(
          `/api/u/${bad}`,
          "List-Unsubscribe=One-Click",
          "application/x-www-form-urlencoded",
        );
        expect(oneClick.status, bad).toBe(404);
        expect(await oneClick.json()).toEqual({ error: "Unsubscribe link not found" });
        const fromPage = await postForm(`/api/u/${bad}`, "source=page", "application/x-www-form-urlencoded");
        expect(fromPage.status, bad).toBe(404);
        expect(await fromPage.text()).toContain("<title>Link not valid</title>");
      }
      expect(await suppressed(key)).toEqual([]);
    });

    it("refuses a body that is not a form (415) and keeps every other route JSON-only", async () => {
      const { key, annPath } = await sentEmail();
      const json = await postForm(annPath, '{"List-Unsubscribe":"One-Click"}', "application/json");
      expect(json.status).toBe(415);
      expect((await json.json()).error).toMatch(/application\/x-www-form-urlencoded/);
      const huge = await postForm(
        annPath,
        `List-Unsubscribe=One-Click&pad=${"x".repeat(20_000)}`,
        "application/x-www-form-urlencoded",
      );
      expect(huge.status).toBe(413);
      expect(await suppressed(key)).toEqual([]);
      // A form sent to a JSON route is still refused there.
      const formToJsonRoute = await call("POST", "/api/suppressions", {
        key,
        raw: "addresses=ann%40example.com",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(formToJsonRoute.status).toBe(415);
    });
  });
}
