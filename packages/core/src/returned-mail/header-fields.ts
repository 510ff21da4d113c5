/**
 * RFC 822-style field blocks, as the report parts carry them: the header of an embedded message
 * (`text/rfc822-headers`), a `message/delivery-status` part (a per-message group, then one group
 * per recipient, separated by blank lines), a `message/feedback-report` or a
 * `message/disposition-notification`. The MIME parser hands these parts over as text; reading
 * their fields is ours, so it is small, bounded and tested on its own.
 */

/** One field: its name lowercased, its value unfolded and trimmed. */
export interface HeaderField {
  name: string;
  value: string;
}

/** The bounds on what is read, so a hostile report costs little. */
export const fieldLimits = {
  /** Characters of a block read; the rest is ignored. */
  maxChars: 256 * 1024,
  /** Fields kept per group. */
  maxFields: 200,
  /** Groups kept (one per recipient in a DSN). */
  maxGroups: 100,
  /** Characters kept of one value. */
  maxValueChars: 4096,
} as const;

const fieldLine = /^([!-9;-~]{1,76}):[ \t]*(.*)$/;

/**
 * Reads `text` as groups of fields separated by blank lines. Folded lines (starting with a space
 * or a tab) continue the field above; lines that are neither a field nor a continuation are
 * skipped, since report parts in the wild carry stray text.
 */
export function parseFieldGroups(text: string): HeaderField[][] {
  const groups: HeaderField[][] = [];
  let group: HeaderField[] = [];
  let open: HeaderField | undefined;
  const lines = text.slice(0, fieldLimits.maxChars).split(/\r?\n|\r/);
  for (const line of lines) {
    if (line.trim() === "") {
      if (group.length > 0) groups.push(group);
      if (groups.length >= fieldLimits.maxGroups) return groups;
      group = [];
      open = undefined;
      continue;
    }
    if ((line.startsWith(" ") || line.startsWith("\t")) && open) {
      if (open.value.length < fieldLimits.maxValueChars)
        open.value = clip(`${open.value} ${line.trim()}`.trim());
      continue;
    }
    const match = fieldLine.exec(line);
    if (!match) {
      open = undefined;
      continue;
    }
    if (group.length >= fieldLimits.maxFields) {
      open = undefined;
      continue;
    }
    open = { name: match[1]!.toLowerCase(), value: clip(match[2]!.trim()) };
    group.push(open);
  }
  if (group.length > 0 && groups.length < fieldLimits.maxGroups) groups.push(group);
  return groups;
}

/**
 * The header of a message: its fields up to the first blank line (an embedded `message/rfc822`
 * or a `text/rfc822-headers` part).
 */
export function parseHeaderBlock(text: string): HeaderField[] {
  const end = text.search(/\r?\n\r?\n/);
  return parseFieldGroups(end === -1 ? text : text.slice(0, end))[0] ?? [];
}

/** The first value of field `name` (any case), or null. */
export function fieldValue(fields: readonly HeaderField[], name: string): string | null {
  const wanted = name.toLowerCase();
  return fields.find((field) => field.name === wanted)?.value ?? null;
}

function clip(value: string): string {
  return value.length > fieldLimits.maxValueChars ? value.slice(0, fieldLimits.maxValueChars) : value;
}
