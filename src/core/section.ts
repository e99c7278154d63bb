import type { Focus } from "./focus.ts";

/** One line of a structured section, with its identity for merging and capping. */
export interface Entry {
  /** Identity shared with the same entry in a previous projection. */
  readonly key: string;
  /** The rendered line; absent for an entry that only updates or removes a previous one. */
  readonly line?: string;
  /**
   * How this entry changes the previous projection's line with the same key: the new line, or
   * `null` to remove it. Absent: the previous line stays as it was.
   */
  readonly update?: (previous: string) => string | null;
}

/** A previous projection's line and the key it was parsed under. */
export interface PreviousEntry {
  readonly key: string;
  readonly line: string;
}

/** What a structured section carries over from the previous projection. */
export interface PreviousSection {
  readonly entries: readonly PreviousEntry[];
  /** Entries the previous projection had already omitted. */
  readonly omitted: number;
}

/** A structured section after merging: its lines, oldest first, before any cap. */
export interface MergedSection {
  readonly lines: readonly string[];
  readonly omitted: number;
}

/**
 * Merges this window's entries into the previous section: a previous line keeps its place and
 * is updated or removed by a new entry with its key; new keys are appended in order.
 */
export function mergeEntries(
  previous: PreviousSection | undefined,
  entries: readonly Entry[],
): MergedSection {
  const lines = new Map<string, string | null>();
  for (const entry of previous?.entries ?? []) {
    if (!lines.has(entry.key)) lines.set(entry.key, entry.line);
  }
  for (const entry of entries) {
    const before = lines.get(entry.key);
    if (before === undefined) {
      if (entry.line !== undefined) lines.set(entry.key, entry.line);
    } else if (before !== null && entry.update) {
      lines.set(entry.key, entry.update(before));
    }
  }
  const kept = [...lines.values()].filter((line): line is string => line !== null);
  return { lines: kept, omitted: previous?.omitted ?? 0 };
}

/**
 * Keeps at most `limit` lines: the oldest go first, except that lines matching the focus topic
 * are kept before any others, and lines that `prefer` marks (say, commands that failed) before
 * the rest. Returns the kept lines in their original order.
 */
export function capLines(
  lines: readonly string[],
  limit: number,
  focus: Focus,
  prefer: (line: string) => boolean = () => false,
): { kept: string[]; dropped: number } {
  if (lines.length <= limit) return { kept: [...lines], dropped: 0 };
  const keep = new Set<number>();
  const order = lines.map((_, index) => index).reverse();
  for (const test of [focus.matches, prefer, () => true]) {
    for (const index of order) {
      if (keep.size < limit && test(lines[index] as string)) keep.add(index);
    }
  }
  const kept = lines.filter((_, index) => keep.has(index));
  return { kept, dropped: lines.length - kept.length };
}

/** The omission note that closes a section which dropped entries. */
export function omissionNote(count: number, noun: string): string {
  return `(${count} older ${noun} omitted; the full history is in the session store)`;
}

/** Reads the count back from an {@linkcode omissionNote}; 0 when `line` is not one. */
export function parseOmissionNote(line: string): number {
  const match = /^\((\d+) older [a-z ]+ omitted/.exec(line);
  return match ? Number(match[1]) : 0;
}
