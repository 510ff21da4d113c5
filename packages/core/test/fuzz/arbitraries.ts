/**
 * fast-check arbitraries for hostile HTTP input: strings, JSON values, bodies, content types,
 * path ids and query strings, the kinds of input that once produced 500s (issue 11).
 */
import fc from "fast-check";

/** Strings a parser, a validator or a database might choke on. */
const hostileStrings = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\r\n",
  "%",
  "%00",
  "%FF",
  "%_\\",
  "\\",
  "__proto__",
  "constructor",
  "😀",
  "\ud800",
  "例え",
  "../..",
  "' OR 1=1 --",
  "<b>".repeat(2000),
  "a".repeat(10_000),
  "9007199254740993",
  "-1",
  "1e400",
  "NaN",
  "2026-02-30,2026-03-01",
  "7d",
  "ann@example.com",
  "https://例え.jp/?e=😀",
];

/** Any string: random text of any code points, or one of the known hostile ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ maxLength: 20 }), weight: 2 },
  { arbitrary: fc.constantFrom(...hostileStrings), weight: 3 },
);

/** Object keys, prototype pollution included. */
const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "", "name"),
  fc.string({ maxLength: 12 }),
);

/** Strings inside JSON bodies: as hostile as any, NUL included (refused by every body's validation). */
const bodyString: fc.Arbitrary<string> = hostileString;

/** Any JSON value with hostile keys and strings, nested a few levels. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    bodyString,
    fc.constantFrom(0, -0, 1.5, -1, 1e308, 2 ** 53, 2 ** 31, true, false, null),
    fc.integer(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie("value"), { maxKeys: 5 }),
  ),
})).value;

/** The JSON text of `value`, with `__proto__` kept as an own key (JSON.stringify drops none). */
function jsonText(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/**
 * A request body as bytes: a valid example with one field replaced, a random JSON value, deep
 * nesting, broken JSON, invalid UTF-8, or nothing. `examples` are the route's documented bodies.
 */
export function hostileBody(examples: readonly Record<string, unknown>[]): fc.Arbitrary<Buffer | undefined> {
  const mutatedExample =
    examples.length === 0
      ? fc.constant(undefined)
      : fc
          .tuple(
            fc.constantFrom(...examples),
            // An example may be `{}` (every field optional): then only hostile keys are tried.
            Object.keys(examples[0]!).length > 0
              ? fc.oneof(fc.constantFrom(...Object.keys(examples[0]!)), hostileKey)
              : hostileKey,
            hostileJson,
          )
          .map(([example, key, value]) => Buffer.from(jsonText({ ...example, [key]: value })));
  const validExample =
    examples.length === 0
      ? fc.constant(undefined)
      : fc.constantFrom(...examples).map((example) => Buffer.from(jsonText(example)));
  return fc.oneof(
    { arbitrary: mutatedExample, weight: 5 },
    { arbitrary: validExample, weight: 1 },
    { arbitrary: hostileJson.map((value) => Buffer.from(jsonText(value))), weight: 3 },
    {
      arbitrary: fc
        .constantFrom(
          `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`,
          `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
          `{"metadata":${'{"a":'.repeat(70)}1${"}".repeat(70)}}`,
          '{"name": ',
          "{'name': 'x'}",
          '{"__proto__": {"admin": true}, "name": "x"}',
          '{"constructor": {"prototype": {"x": 1}}}',
          "null",
          "[]",
          '"text"',
          "1e999",
        )
        .map((text) => Buffer.from(text)),
      weight: 2,
    },
    { arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)), weight: 1 },
    {
      arbitrary: fc.constant(Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
      weight: 1,
    },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

/** Content types, including none, empty and malformed ones. */
export const hostileContentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant("application/json"), weight: 6 },
  {
    arbitrary: fc.constantFrom(
      undefined,
      "",
      "application/json; charset=utf-8",
      "application/vnd.api+json",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "json",
      ";;;",
      "application/",
    ),
    weight: 3,
  },
);

/** A path segment as sent on the wire: encoded text, or raw bad escapes, dots and long runs. */
export function hostileSegment(knownIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: knownIds.length > 0 ? fc.constantFrom(...knownIds) : fc.constant("x"), weight: 3 },
    {
      arbitrary: hostileString.map((text) => encodeURIComponent(toWellFormed(text)).slice(0, 3000)),
      weight: 4,
    },
    {
      arbitrary: fc.constantFrom(
        "%00",
        "a%00b",
        "%FF",
        "%",
        "%u0041",
        "%E2%82",
        "%ED%A0%80",
        ".",
        "..",
        "%2e%2e",
        ".%2E",
        "",
        "a".repeat(201),
        "a".repeat(5000),
        "%0A",
        "%7F",
      ),
      weight: 3,
    },
  );
}

/** A query string (without `?`) with the routes' parameter names and hostile values. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom("period", "search", "limit", "cursor"), hostileKey),
      fc.oneof(
        hostileString.map((text) => encodeURIComponent(toWellFormed(text)).slice(0, 2000)),
        fc.constantFrom(
          "%",
          "%FF",
          "%00",
          "1001",
          "0",
          "-5",
          "1.5",
          "1e3",
          "7d",
          "30d",
          "OTAwNzE5OTI1NDc0MDk5MQ",
          "WzkwMDcxOTkyNTQ3NDA5OTEsImFAZXhhbXBsZS5jb20iXQ",
        ),
      ),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => pairs.map(([key, value]) => `${encodeURIComponent(toWellFormed(key))}=${value}`).join("&"));

/** Lone surrogates have no UTF-8 form; `encodeURIComponent` throws on them. */
function toWellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}
