/**
 * Issue 31: 5 MiB of `<math><mi>x</math>` in `POST /api/send` without a `text` field held the
 * event loop for 55 s while the plain-text part was derived, and every tenant's pixel waited. For
 * each shape of `html-shapes.ts`: the text derivation is linear in the HTML's length, the sliced
 * derivation the send path uses gives exactly the synchronous result, and a 5 MiB send through a
 * real HTTP server leaves the loop free enough that tracking hits are answered meanwhile: link
 * rewriting too, which held it 0.6 to 1.1 s over the shapes of hundreds of thousands of `<a>` tags
 * before it read in slices, and the refusals (tracked links past 1,000, placeholders past 100).
 *
 * The bounds are loose on purpose (the CI machine has 2 loaded cores): the loop may be held at
 * most 1 s at a time (64 KiB slices take a few milliseconds idle), and 5 MiB may cost at most 15
 * times 1 MiB (linear is five, quadratic 25; the quadratic shapes were over a hundred). Measured figures are printed.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createMailPulse, type MailPulse, memoryProvider, type Storage } from "@mailpulse/core";
import {
  createApiClient,
  createTenant,
  startTestServer,
  type TestServer,
} from "@mailpulse/testing/contracts";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collapseWhitespace, tidyLines, tidyLinesInSlices } from "../../src/html/collapse-whitespace.js";
import { htmlToText, htmlToTextInSlices } from "../../src/html/html-to-text.js";

import { storageFactories } from "../support/storages.js";
import { htmlOfShape, htmlShapes } from "./html-shapes.js";

const MiB = 1024 * 1024;
const figures: string[] = [];

/** Milliseconds `htmlToText` takes, the better of two runs; a refusal (too deep) counts as done. */
function derivationTime(html: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 2; run += 1) {
    const started = performance.now();
    try {
      htmlToText(html);
    } catch {
      // VALIDATION_FAILED for nesting; the send test checks the answer.
    }
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

function outcome(html: string): string {
  try {
    return htmlToText(html);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

async function slicedOutcome(html: string, sliceLength: number): Promise<string> {
  try {
    return await htmlToTextInSlices(html, sliceLength);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

afterAll(() => {
  console.log(`HTML shapes (issue 31):\n${figures.join("\n")}`);
});

describe("plain-text derivation of hostile HTML shapes", () => {
  it.each(htmlShapes.map((shape) => [shape.name, shape] as const))(
    "%s: linear in the HTML's length",
    (_name, shape) => {
      const small = derivationTime(htmlOfShape(shape, MiB));
      const large = derivationTime(htmlOfShape(shape, 5 * MiB));
      figures.push(`  ${shape.name}: htmlToText 1 MiB ${small.toFixed(0)} ms, 5 MiB ${large.toFixed(0)} ms`);
      // The floor keeps shapes refused within microseconds from failing on timer noise.
      expect(large).toBeLessThan(Math.max(15 * small, 250));
    },
  );

  it("gives the same text (or the same refusal) in slices as in one piece, for mixtures of the shapes", async () => {
    const pieces = [
      ...htmlShapes.map((shape) => shape.unit),
      ...["<p>", "</p>", "<li>", "</a>", "<br>", " ", "  ", "\n", "&nbsp;", "<style>p{}</style>"],
      ...['<img alt="Logo">', '<span style="display:none">', "</span>", "<head><title>T</title></head>"],
      ...["<!-- c -->", "<![CDATA[x]]>", "\u200b", "\u00ad", "\u3000", "😀", "<b>".repeat(600)],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...pieces), { maxLength: 60 }),
        fc.integer({ min: 1, max: 40 }),
        async (chosen, sliceLength) => {
          const html = chosen.join("");
          const whole = outcome(html);
          expect(await slicedOutcome(html, sliceLength)).toBe(whole);
          if (whole.startsWith("error: "))
            expect(whole).toContain("nests elements more than 1000 levels deep");
        },
      ),
      { numRuns: 400 },
    );
  });
});

// The derivation does not touch storage; SQLite in memory keeps the 5 MiB sends quick.
describe("5 MiB sends of each shape through a real HTTP server", () => {
  let mailpulse: MailPulse;
  let storage: Storage;
  let server: TestServer;
  let key: string;
  let pixelUrl: string;

  beforeAll(async () => {
    storage = await storageFactories[0]!.create();
    mailpulse = createMailPulse({ storage, baseUrl: "http://mail.test", mailProvider: memoryProvider() });
    server = await startTestServer("fetch", mailpulse);
    const tenant = await createTenant(mailpulse);
    key = tenant.key;
    const sent = await mailpulse.emails.send(tenant.organization.id, {
      from: "a@shop.example",
      to: "b@example.com",
      subject: "Pixel",
      htmlContent: "<p>Hello</p>",
    });
    pixelUrl = sent.pixelUrl!.replace("http://mail.test", server.baseUrl);
  });
  afterAll(async () => {
    await server.close();
    await mailpulse.stop();
    await storage.close();
  });

  it.each(htmlShapes.map((shape) => [shape.name, shape] as const))(
    "%s: answered while tracking hits are served",
    async (_name, shape) => {
      const call = createApiClient(server.baseUrl);
      const htmlContent = htmlOfShape(shape, 5 * MiB);
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      let sending = true;
      let hits = 0;
      const hitter = (async () => {
        while (sending) {
          const pixel = await fetch(pixelUrl);
          await pixel.arrayBuffer();
          expect(pixel.status).toBe(200);
          if (sending) hits += 1;
        }
      })();
      const started = performance.now();
      const answer = await call("POST", "/api/send", {
        key,
        json: { from: "a@shop.example", to: "b@example.com", subject: "Shape", htmlContent },
      });
      const elapsed = performance.now() - started;
      sending = false;
      await hitter;
      loop.disable();
      const longestHold = loop.max / 1e6;
      figures.push(
        `  ${shape.name}: send ${answer.status} in ${elapsed.toFixed(0)} ms, ` +
          `longest loop hold ${longestHold.toFixed(0)} ms, ${hits} pixel hits meanwhile`,
      );
      if (shape.refusal !== undefined) {
        expect(answer).toMatchObject({ status: 400, body: { error: shape.refusal } });
      } else {
        expect([200, 400]).toContain(answer.status);
        if (answer.status === 400) {
          expect(answer.body).toEqual({
            error: 'Invalid request body: "htmlContent": nests elements more than 1000 levels deep',
          });
        }
      }
      // Every pass over the HTML (link rewriting, the text part) reads it in 64 KiB slices.
      expect(longestHold).toBeLessThan(1000);
      // A send that took long must have let tracking hits through.
      if (elapsed > 1000) expect(hits).toBeGreaterThan(0);
    },
    60_000,
  );
});

describe("collapseWhitespace and tidyLines", () => {
  const characters = [..." \t\n\r\f\v", ..."\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"];
  const hidden = ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\u034f"];
  const pieces = [...characters, ...hidden, "a", "😀", "\ud800", "é", "x".repeat(40)];
  const text = (from: string[]) =>
    fc.array(fc.constantFrom(...from), { maxLength: 80 }).map((parts) => parts.join(""));

  it("collapseWhitespace drops invisible characters and collapses \\s runs as the regular expressions did", () => {
    fc.assert(
      fc.property(text(pieces), (value) => {
        const expected = value
          .replace(/\u200b|\u200c|\u200d|\u2060|\ufeff|\u034f|\u00ad/g, "")
          .replace(/\s+/g, " ");
        expect(collapseWhitespace(value)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it("tidyLines collapses spaces and trims lines and the text as split/replace/trim did", () => {
    fc.assert(
      fc.property(text([" ", "  ", "\n", "a", "bc", "x".repeat(40)]), (value) => {
        const expected = value
          .split("\n")
          .map((line) => line.replace(/ {2,}/g, " ").trim())
          .join("\n")
          .trim();
        expect(tidyLines(value)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it("tidyLinesInSlices gives tidyLines' result wherever the slices are cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        text([" ", "  ", "\n", "a", "bc", "😀", "x".repeat(40)]),
        fc.integer({ min: 1, max: 50 }),
        async (value, sliceLength) => {
          expect(await tidyLinesInSlices(value, sliceLength)).toBe(tidyLines(value));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
