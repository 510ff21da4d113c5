/**
 * Whitespace normalization for the plain-text part, in one pass over the characters.
 *
 * Why not `text.replace(/\s+/g, " ")`: a global replace costs about a microsecond and some garbage
 * per match, so text with a whitespace character every other byte (`x\tx\t…`, `&zwnj;` preheader
 * filler) took seconds per MiB of blocked event loop (issue 31). These loops write UTF-16 code
 * units into one buffer and make the string from it in large chunks: a few nanoseconds per
 * character whatever the text holds.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

/** Zero-width space/joiners, word joiner, BOM, combining grapheme joiner, soft hyphen. */
const INVISIBLE = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x034f, 0x00ad]);
/** A character {@link collapseWhitespace} drops or changes: a test, so it stops at the first one. */
const NEEDS_COLLAPSING = /[^\S ]| {2}|\u200b|\u200c|\u200d|\u2060|\ufeff|\u034f|\u00ad/;
const INVISIBLE_PATTERN = /\u200b|\u200c|\u200d|\u2060|\ufeff|\u034f|\u00ad/g;
/** Up to this length, {@link collapseWhitespace} uses the regular expressions. */
const SHORT = 32;
const SPACE = 0x20;
const NEWLINE = 0x0a;
/** Code units per `String.fromCharCode` call: well under any engine's argument limit. */
const CHUNK = 8192;

/** Whether a code unit matches `\s` in a JavaScript regular expression (BOM aside: it is invisible). */
function isWhitespace(code: number): boolean {
  if (code <= SPACE) return code === SPACE || (code >= 0x09 && code <= 0x0d);
  if (code < 0x00a0) return false;
  return (
    code === 0x00a0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

function fromCodeUnits(units: Uint16Array, length: number): string {
  let result = "";
  for (let start = 0; start < length; start += CHUNK) {
    const end = Math.min(start + CHUNK, length);
    result += String.fromCharCode.apply(null, units.subarray(start, end) as unknown as number[]);
  }
  return result;
}

/**
 * Drops invisible characters (zero-width space and joiners, word joiner, BOM, combining grapheme
 * joiner, soft hyphen) and turns each run of whitespace (as `\s` means it: NBSP and line breaks
 * too) into one space; the same result as `text.replace(INVISIBLE, "").replace(/\s+/g, " ")`.
 */
export function collapseWhitespace(text: string): string {
  // Most text runs of a newsletter need nothing: answer them without allocating.
  if (!NEEDS_COLLAPSING.test(text)) return text;
  // A short run (one entity, one word) has few matches: the regular expressions are cheaper
  // than a buffer.
  if (text.length <= SHORT) return text.replace(INVISIBLE_PATTERN, "").replace(/\s+/g, " ");
  const units = new Uint16Array(text.length);
  let length = 0;
  let pendingSpace = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (INVISIBLE.has(code)) {
      // Dropped without ending a run of whitespace, as removing it first would.
    } else if (isWhitespace(code)) {
      pendingSpace = true;
    } else {
      if (pendingSpace) units[length++] = SPACE;
      pendingSpace = false;
      units[length++] = code;
    }
  }
  if (pendingSpace) units[length++] = SPACE;
  return fromCodeUnits(units, length);
}

/**
 * For text holding no whitespace but spaces and line feeds (what {@link collapseWhitespace} and
 * line breaks leave): turns runs of spaces into one, drops spaces at the start and end of each
 * line and line feeds at the start and end of the text; the same result as
 * `text.split("\n").map((line) => line.replace(/ {2,}/g, " ").trim()).join("\n").trim()`.
 */
export function tidyLines(text: string): string {
  const steps = tidyLinesSteps(text, Number.POSITIVE_INFINITY);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * {@link tidyLines} without holding the event loop: reads `sliceLength` characters at a time and
 * yields to the loop between them (5 MiB of text took 130 ms in one piece on a loaded machine).
 * Same result.
 */
export async function tidyLinesInSlices(text: string, sliceLength: number): Promise<string> {
  const steps = tidyLinesSteps(text, Math.max(1, sliceLength));
  let step = steps.next();
  while (!step.done) {
    await nextTurn();
    step = steps.next();
  }
  return step.value;
}

/** The loop of {@link tidyLines}, yielding after every `sliceLength` characters read and written. */
function* tidyLinesSteps(text: string, sliceLength: number): Generator<void, string> {
  const units = new Uint16Array(text.length);
  let length = 0;
  let pendingSpace = false;
  let pendingNewlines = 0;
  let pauseAt = sliceLength;
  for (let index = 0; index < text.length; index += 1) {
    if (index === pauseAt) {
      pauseAt += sliceLength;
      yield;
    }
    const code = text.charCodeAt(index);
    if (code === SPACE) {
      pendingSpace = true;
    } else if (code === NEWLINE) {
      // A space before a line feed ends its line: dropped.
      pendingSpace = false;
      pendingNewlines += 1;
    } else {
      if (pendingNewlines > 0) {
        // Line feeds before the first character are the text's leading ones: dropped.
        if (length > 0) for (let count = 0; count < pendingNewlines; count += 1) units[length++] = NEWLINE;
        pendingNewlines = 0;
      } else if (pendingSpace && length > 0 && units[length - 1] !== NEWLINE) {
        units[length++] = SPACE;
      }
      pendingSpace = false;
      units[length++] = code;
    }
  }
  if (!Number.isFinite(sliceLength)) return fromCodeUnits(units, length);
  const pieces: string[] = [];
  for (let start = 0; start < length; start += sliceLength) {
    yield;
    pieces.push(
      fromCodeUnits(
        units.subarray(start, Math.min(start + sliceLength, length)),
        Math.min(sliceLength, length - start),
      ),
    );
  }
  return pieces.join("");
}
