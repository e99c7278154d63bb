import { headerSpan, isHeader } from "./header.ts";
import {
  APPENDED_HEADINGS,
  LEGACY_SUMMARY_PREFIX,
  MERGED_PRIOR_HEADER,
  MERGED_SUMMARY_DELIMITER,
  SNAPSHOT_DISCLAIMER,
  SUMMARY_END_MARKER,
  SUMMARY_PREFIX_START,
} from "./hermes.ts";
import type { Moment } from "./moment.ts";
import { parsePreviousRef, REF_PATTERN } from "./ref.ts";
import { readRoot, readRootNote, type RootView, WHOLE_PATHS } from "./root.ts";
import { cleanLine, sanitizeInline, visibleText } from "./sanitize.ts";
import { parseOmissionNote } from "./section.ts";
import { quoteLines } from "./sections/quoted_summary.ts";
import { LOG_SECTION, SECTION_DESCRIPTIONS, type SectionId, SECTIONS } from "./sections/table.ts";

/** One section of a previous projection, read back: its entries (of its spec's type) and omissions. */
export interface PreviousSection {
  readonly entries: readonly unknown[];
  readonly omitted: number;
}

/** One projection found in the previous summary (Hermes may pass several, joined). */
export interface PreviousBlock {
  readonly sections: ReadonlyMap<SectionId, PreviousSection>;
  /** Log lines with stored references (`[#N]`), oldest first. */
  readonly log: readonly string[];
  readonly logOmitted: number;
  /** When its messages began: the time its header states, and the lowest row it cites. */
  readonly start: Moment;
  /** The root its lines showed paths from. */
  readonly root?: string;
}

/** Everything a previous summary carries forward: its projections, oldest first. */
export interface PreviousSummary {
  readonly blocks: readonly PreviousBlock[];
  /** How many of the blocks are summaries vcc did not write, kept as quotes. */
  readonly foreign: number;
}

// Lines Hermes wraps around a summary it stores or carries (the disclaimer its grounding writes
// under the task snapshot among them); a line starting with one is Hermes's, not the summary's.
const HERMES_LINES = [
  SUMMARY_PREFIX_START,
  LEGACY_SUMMARY_PREFIX,
  MERGED_PRIOR_HEADER,
  MERGED_SUMMARY_DELIMITER,
  SUMMARY_END_MARKER,
  SNAPSHOT_DISCLAIMER,
];
// How projections written before the header line existed identified themselves.
const EARLIER_SIGNATURE = "(Deterministic excerpts, no model involved.";
const LOG_LINE = new RegExp(`^(${REF_PATTERN}) \\S`);

interface RawBlock {
  /** Lines under each of the projection's headings. */
  readonly lines: Map<string, string[]>;
  /** Lines outside any of its sections: kept as quotes. */
  readonly stray: string[];
  from?: number;
}

/**
 * Reads a previous summary as Hermes passes it back: each projection vcc wrote (after a restart
 * Hermes joins every earlier summary into one text), cleaned line by line before anything is read
 * from it, so no invisible character can hide a heading. Hermes's own appended sections and
 * wrappers are ignored. A summary vcc did not write, and any line of a projection that is not one
 * of its sections' entries, is kept as a quoted line of the Earlier Summary section.
 */
export function parsePrevious(text: string | undefined): PreviousSummary | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  // Structure is recognised in what a reader sees (so no invisible character can hide a
  // heading); every line kept is cleaned in full.
  const lines = text.split(/\r?\n/).map(visibleText);
  // A projection of any release of vcc, or of the engine it replaces: its header or signature,
  // or the headings of at least two of its sections.
  const ours = lines.some((line) => isHeader(line) || line.startsWith(EARLIER_SIGNATURE)) ||
    new Set(lines.filter((line) => CURRENT_HEADING.has(line))).size >= 2;
  const blocks: RawBlock[] = [];
  const open = (): RawBlock => {
    const block: RawBlock = { lines: new Map(), stray: [] };
    blocks.push(block);
    return block;
  };
  let block: RawBlock | undefined;
  // The heading lines go under; "" inside a section of Hermes's, undefined outside any section.
  let heading: string | undefined;
  for (const line of lines) {
    if (line === "" || isHermesLine(line)) continue;
    // The engine vcc replaces wrote its note as the first line under the session log's heading.
    const logNote = heading === LOG_SECTION.heading && block?.lines.get(heading)?.length === 0;
    if (ours && isHeader(line) && !logNote) {
      // A header opens a projection, unless all before it is the task snapshot Hermes's
      // grounding put in front of it.
      const onlySnapshot = block !== undefined && block.from === undefined &&
        block.stray.length === 0 && [...block.lines.keys()].every((key) =>
          key === SNAPSHOT_HEADING
        );
      if (!onlySnapshot || block === undefined) block = open();
      const span = headerSpan(line);
      if (span.from !== undefined) block.from = span.from;
      heading = undefined;
      continue;
    }
    block ??= open();
    if (line.startsWith("## ")) {
      if (APPENDED_HEADINGS.some((appended) => sameHeading(line, appended))) {
        heading = "";
        continue;
      }
      const known = ours ? CURRENT_HEADING.get(line) : undefined;
      if (known !== undefined) {
        // The same heading twice: a projection joined without its header (written before there
        // was one) begins.
        if (block.lines.has(known)) block = open();
        block.lines.set(known, []);
        heading = known;
        continue;
      }
      heading = undefined;
    }
    if (heading === "") continue;
    if (heading === undefined) block.stray.push(cleanLine(line));
    else block.lines.get(heading)?.push(cleanLine(line));
  }
  return { blocks: blocks.map(readBlock), foreign: ours ? 0 : 1 };
}

const SNAPSHOT_HEADING = SECTIONS[0]?.heading;

/** Whether a (visible) line is one of Hermes's wrappers: it starts as one does, up to its dash. */
function isHermesLine(line: string): boolean {
  return HERMES_LINES.some((wrapper) => line.startsWith(wrapper.split(" —")[0] as string));
}

/** Whether a heading line is `heading` (its first words: Hermes varies what it adds after them). */
function sameHeading(line: string, heading: string): boolean {
  return line.startsWith(heading.split(" (")[0] as string);
}
const STORED_REF = /\[#(\d{1,15})\]/g;

function lowestRow(block: RawBlock): { row?: number } {
  let lowest: number | undefined;
  for (const lines of block.lines.values()) {
    for (const line of lines) {
      for (const match of line.matchAll(STORED_REF)) {
        const id = Number(match[1]);
        if (lowest === undefined || id < lowest) lowest = id;
      }
    }
  }
  return lowest === undefined ? {} : { row: lowest };
}

/** Every heading a projection of any release may hold, by the heading its section has now. */
const CURRENT_HEADING = new Map<string, string>(
  SECTION_DESCRIPTIONS.flatMap((section) =>
    [section.heading, ...section.formerHeadings].map((heading) => [heading, section.heading])
  ),
);

function readBlock(block: RawBlock): PreviousBlock {
  const sections = new Map<SectionId, PreviousSection>();
  const root = block.stray.map(readRootNote).find((named) => named !== undefined);
  const view: RootView = root === undefined ? WHOLE_PATHS : { root };
  const stray = block.stray.filter((line) => readRootNote(line) === undefined);
  for (const section of SECTIONS) {
    const lines = block.lines.get(section.heading);
    if (lines === undefined) continue;
    const entries: unknown[] = [];
    let omitted = 0;
    section.use((spec) => {
      for (const line of lines) {
        const shared = spec.shared?.parse(line, view);
        const entry = shared === undefined ? spec.parse(line, view) : undefined;
        if (shared !== undefined) entries.push(...shared);
        else if (entry !== undefined) entries.push(entry);
        else if (parseOmissionNote(line) > 0) omitted += parseOmissionNote(line);
        else stray.push(line);
      }
    });
    sections.set(section.id, { entries, omitted });
  }
  if (stray.length > 0) {
    const quoted = sections.get("quotedLines");
    const strayQuotes = stray.flatMap((line) => quoteLines(line));
    sections.set("quotedLines", {
      entries: [...(quoted?.entries ?? []), ...strayQuotes],
      omitted: quoted?.omitted ?? 0,
    });
  }
  const log = block.lines.get(LOG_SECTION.heading) ?? [];
  return {
    sections,
    log: log.flatMap((line) => {
      const match = LOG_LINE.exec(line);
      if (match === null || parsePreviousRef(match[1] as string)?.kind !== "row") return [];
      // Its reference leads; anything after it is quoted text again, its paths read whole.
      const rest = sanitizeInline(line.slice((match[1] as string).length + 1));
      return [`${match[1]} ${readRoot(rest, view)}`];
    }),
    logOmitted: log.reduce((sum, line) => sum + parseOmissionNote(line), 0),
    start: { ...(block.from === undefined ? {} : { time: block.from }), ...lowestRow(block) },
    ...(root === undefined ? {} : { root }),
  };
}
