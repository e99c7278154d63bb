import { cleanLine } from "./sanitize.ts";
import { parseOmissionNote, type PreviousEntry, type PreviousSection } from "./section.ts";

/** The sections of a previous projection that carry forward into the next one. */
export interface PreviousProjection {
  readonly snapshot: readonly string[];
  readonly goal: PreviousSection | undefined;
  readonly blocked: PreviousSection | undefined;
  readonly errorsFixes: PreviousSection | undefined;
  readonly errorNames: PreviousSection | undefined;
  readonly files: PreviousSection | undefined;
  readonly commands: PreviousSection | undefined;
  /** Log lines with stored references (`[#N]`), oldest first. */
  readonly log: readonly string[];
  /** Log lines the previous projection had already omitted. */
  readonly logOmitted: number;
}

type SectionName = "goal" | "blocked" | "errorsFixes" | "errorNames" | "files" | "commands";

const HEADINGS: Readonly<Record<string, SectionName | "snapshot" | "log">> = {
  "## Historical Task Snapshot": "snapshot",
  "## Goal": "goal",
  "## Blocked": "blocked",
  "## Errors & Fixes": "errorsFixes",
  "## Error Names Seen": "errorNames",
  "## Relevant Files": "files",
  "## Commands Run": "commands",
  "## Detailed Session Log (oldest first)": "log",
};

// Each section's entry grammar and how its merge key is read (the same key the section's builder
// gives a new entry). Lines that do not fit (Hermes's own prose, stray text) are not carried.
const CALL_ENTRY = /^- \[(?:#\d+|unsaved)\] (\S+(?: `[^`]+`| (`{2,}) .+? \2)?) — /;
const KEYS: Readonly<Record<SectionName, readonly [RegExp, (match: RegExpExecArray) => string]>> = {
  // A goal line without a reference (from a summary vcc did not write) still carries forward.
  goal: [/^(\[(?:#\d+|unsaved)\]) \S|^(?!\()(.+)$/, (match) => (match[1] ?? match[2]) as string],
  blocked: [CALL_ENTRY, (match) => match[1] as string],
  errorsFixes: [CALL_ENTRY, (match) => match[1] as string],
  errorNames: [/^- (\S.*?) \(first at /, (match) => match[1] as string],
  files: [/^- (.+?) — \S/, (match) => match[1] as string],
  commands: [
    /^- \[(?:#\d+|unsaved)\] (?:`([^`]+)`|(`{2,}) (.+?) \2) — /,
    (match) => (match[1] ?? match[3]) as string,
  ],
};
const LOG_LINE = /^\[#\d+\] \S/;
const POSITIONAL_REF = /\[t\d+\]/g;

/**
 * Parses a previous projection, as Hermes stored it: its summary prefix, end marker and appended
 * sections (Anchor Index, User Messages, Context Recovery) are ignored, and each line is cleaned
 * again. Positional `[tN]` references of the old window are stale and become `[unsaved]`; log
 * lines that carry one are dropped.
 */
export function parsePrevious(text: string | undefined): PreviousProjection | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const collected = new Map<string, string[]>();
  let current: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (raw.startsWith("## ")) {
      current = HEADINGS[raw.trimEnd()];
      if (current && !collected.has(current)) collected.set(current, []);
      continue;
    }
    if (raw.startsWith("--- END OF CONTEXT SUMMARY")) current = undefined;
    const line = cleanLine(raw);
    if (current && line !== "") collected.get(current)?.push(line);
  }
  if (collected.size === 0) return undefined;
  const section = (name: SectionName) => parseSection(collected.get(name), KEYS[name]);
  const log = collected.get("log") ?? [];
  return {
    snapshot: (collected.get("snapshot") ?? []).map(unposition),
    goal: section("goal"),
    blocked: section("blocked"),
    errorsFixes: section("errorsFixes"),
    errorNames: section("errorNames"),
    files: section("files"),
    commands: section("commands"),
    log: log.filter((line) => LOG_LINE.test(line)),
    logOmitted: log.reduce((sum, line) => sum + parseOmissionNote(line), 0),
  };
}

function parseSection(
  lines: readonly string[] | undefined,
  [grammar, keyOf]: readonly [RegExp, (match: RegExpExecArray) => string],
): PreviousSection | undefined {
  if (lines === undefined) return undefined;
  const entries: PreviousEntry[] = [];
  let omitted = 0;
  for (const raw of lines) {
    const line = unposition(raw);
    const match = grammar.exec(line);
    if (match) entries.push({ key: keyOf(match), line });
    else omitted += parseOmissionNote(line);
  }
  return { entries, omitted };
}

function unposition(line: string): string {
  return line.replace(POSITIONAL_REF, "[unsaved]");
}
