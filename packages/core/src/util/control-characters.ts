/**
 * Whether `text` holds a C0 control character (U+0000 to U+001F, NUL among them) or DEL. No id,
 * address or cursor MailPulse issues holds one, and PostgreSQL refuses NUL in text outright, so
 * input carrying one is refused before it reaches a storage. (A loop, not a regular expression:
 * the linter rightly flags control characters in patterns as usually unintended.)
 */
export function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code <= 0x1f || code === 0x7f) return true;
  }
  return false;
}
