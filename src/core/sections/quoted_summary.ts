import { cut } from "../excerpt.ts";
import { sanitizeInline } from "../sanitize.ts";
import type { SectionSpec } from "../section.ts";

/** One line of an earlier summary vcc did not write. */
export interface QuotedLine {
  readonly text: string;
}

const PREFIX = "> ";

/**
 * Earlier Summary: a previous summary vcc did not write (Hermes's model-written summary from
 * before vcc, or from a pass that fell back), kept as quoted lines rather than dropped, its first
 * lines first. No window adds to it; it is carried forward as it is.
 */
export const QUOTED_SUMMARY: SectionSpec<QuotedLine> = {
  heading: "## Earlier Summary (quoted, not written by vcc)",
  noun: "quoted lines",
  pinned: 0,
  widths: { narrow: 120, wide: 300 },
  ownWords: "",
  keep: "first",
  changes: () => [],
  key: (entry) => entry.text,
  merge: (earlier) => earlier,
  render: (entry, width) => `${PREFIX}${cut(entry.text, width)}`,
  parse: (line) =>
    line.startsWith(PREFIX) ? { text: sanitizeInline(line.slice(PREFIX.length)) } : undefined,
};

/** The lines of a summary vcc did not write, cleaned and ready to quote (blank lines dropped). */
export function quoteLines(text: string): QuotedLine[] {
  return text.split(/\r?\n/).map(sanitizeInline).filter((line) => line !== "").map((line) => ({
    text: line,
  }));
}
