/**
 * Reads a projection's Markdown back into what the recall bench scores. This is the one place
 * that knows the projection's line formats; it reads them liberally (unknown sections and lines
 * are skipped, outcome words are kept as written) but takes an outcome only from a complete
 * state: words, an optional `(exit N)`, an optional `×K`, then a reference (and, for a run of
 * several, `, last` and the reference of its last).
 *
 * - Commands Run: ``- [#call] `display` (id 1a2b3c4d) — <state> [#ref], then <state> [#ref]…``
 *   (the `[#call]` may be absent; a background job's display is followed by `(job ID)`)
 *   (the fingerprint only where the display does not determine the command); a long history
 *   may hold `… N more`. A display may be cut (`head…`, `head…tail`) and fenced with several
 *   backticks. A line cut short loses its closing states: its final outcome is then not stated.
 * - Blocked and Errors & Fixes: ``- [#call] tool `display` — <state> [#ref]`` followed by
 *   `, no later success`, `: <quoted words>` and/or ` → fixed at [#ref]`.
 * - Relevant Files: `- path — operations`; Errors Seen: `- line ×N[, numbers vary] (first at
 *   [#ref])`; Goal: `[#ref] request`.
 * - A section that dropped entries ends with `(N older <noun> omitted; …)`.
 *
 * @module
 */
import { SECTION_DESCRIPTIONS } from "../../core/mod.ts";

/** One stated outcome: `failed (exit 1) ×5 [#19]`. */
export interface StatedOutcome {
  /** The words before the exit code, count and reference (`failed`, `no match`, `ran`). */
  readonly words: string;
  readonly exit?: number;
  /** The row the state cites: the run's result (or its call when no result row exists). */
  readonly ref: string;
}

/** A Commands Run line. */
export interface CommandLine {
  /** The row the line is matched to its command by: its first outcome's (a run's result), or the
   * call's row an older line led with. */
  readonly ref?: string;
  readonly display: string;
  /** Complete states, in order (an elided `… N more` is skipped). */
  readonly outcomes: readonly StatedOutcome[];
  /** The last state, when the line ends with a complete one. */
  readonly final?: StatedOutcome;
}

/** A Blocked or Errors & Fixes line: one call and the state it reports. */
export interface CallClaimLine {
  readonly ref?: string;
  readonly tool: string;
  readonly display: string;
  readonly outcome?: StatedOutcome;
  /** Blocked: `, no later success` follows the state. */
  readonly noLaterSuccess: boolean;
  /** Errors & Fixes: the row of ` → fixed at [#ref]`. */
  readonly fixedAt?: string;
}

/** A Relevant Files line. */
export interface FileLine {
  readonly path: string;
  /** The text after the path: `read ×2 [#12]; modified (patched) [#15]`. */
  readonly operations: string;
}

/** A section's entries and its omission note's count (0 without a note). */
export interface SectionText<T> {
  readonly lines: readonly T[];
  readonly omitted: number;
}

/** The scored sections of a projection. */
export interface ProjectionText {
  /** Goal: the reference each request line starts with. */
  readonly requests: SectionText<string>;
  readonly blocked: SectionText<CallClaimLine>;
  readonly errorsFixes: SectionText<CallClaimLine>;
  readonly errorNames: SectionText<string>;
  readonly files: SectionText<FileLine>;
  readonly commands: SectionText<CommandLine>;
}

const REF = String.raw`\[(#\d+|t\d+)\]`;
const LEADING_REF = new RegExp(`^${REF} ?`);
// A run of several outcomes may name its last row after its first (`×2 [#9], last [#15]`).
const COMPLETE_STATE = new RegExp(`^(.*?)(?: ×\\d+)? ${REF}(?:, last ${REF})?$`);
// An exit code as stated, also as the code of the program that passed it on (`(exit 0 of tail)`).
const EXIT = /\(exit (-?\d+)(?: of [^\s()]+)?\)/;
const CLAIM_STATE = new RegExp(`^([^\\[\\]:]*?)(?: ${REF})?(, no later success)?(?::|$)`);
const FIXED_AT = new RegExp(` → fixed at ${REF}$`);
const OMISSION = /^\((\d+) older [^)]*? omitted/;
const SEPARATOR = " — ";
// What follows a display: a background job's process id, a fingerprint where the display does not
// determine the command.
const FINGERPRINT = /^(?: \(job [\w.-]{1,64}\))?(?: \(id [0-9a-f]{8}\))?/;

/** Parses the sections of a projection body the recall bench scores. */
export function readProjection(body: string): ProjectionText {
  const root = ROOT_NOTE.exec(body)?.[1];
  const sections = splitSections(root === undefined ? body : expandRoot(body, root));
  const section = <T>(
    id: string,
    read: (line: string) => T | readonly T[] | undefined,
    entry = "- ",
  ) => {
    const lines = sections.get(id) ?? [];
    const entries: T[] = [];
    let omitted = 0;
    for (const line of lines) {
      const note = OMISSION.exec(line);
      if (note) omitted = Number(note[1]);
      else if (line.startsWith(entry)) {
        const parsed = read(line.slice(entry === "- " ? 2 : 0));
        if (Array.isArray(parsed)) entries.push(...parsed);
        else if (parsed !== undefined) entries.push(parsed as T);
      }
    }
    return { lines: entries, omitted };
  };
  return {
    requests: section("requests", (line) => LEADING_REF.exec(line)?.[1], "["),
    blocked: section("blocked", readClaimLine),
    errorsFixes: section("errors", readClaimLine),
    errorNames: section(
      "errorsSeen",
      (line) => line.replace(/(?: ×\d+(?:, numbers vary)?)? \(first at .*$/, ""),
    ),
    files: section("files", readFileLine),
    commands: section("commands", (line) => readSharedLine(line) ?? readCommandLine(line)),
  };
}

// Commands that succeeded once share a line: `succeeded (exit 0) once each: [#result] `display`;
// …`, each part a command whose one outcome is the line's, at the result it cites (a line of
// 0.3's development cited the call before the display and the result after it).
const SHARED = /^(.*?) once each: /;
const PART_HEAD = new RegExp(`^${REF} `);
const PART_TAIL = new RegExp(`^(?: ${REF})?(?:; |$)`);

/** The commands of a shared line; `undefined` for any other line. */
function readSharedLine(line: string): CommandLine[] | undefined {
  const opening = SHARED.exec(line);
  if (!opening) return undefined;
  const state = opening[1] as string;
  const found: CommandLine[] = [];
  let rest = line.slice(opening[0].length);
  while (rest !== "") {
    const head = PART_HEAD.exec(rest);
    if (!head) return undefined;
    const span = readCodeSpan(rest.slice(head[0].length));
    const after = span.after ?? "";
    const tail = PART_TAIL.exec(after);
    if (!tail) return undefined;
    const outcome = withExit(state, tail[1] ?? head[1] as string);
    found.push({ ref: head[1] as string, display: span.text, outcomes: [outcome], final: outcome });
    rest = after.slice(tail[0].length);
  }
  return found;
}

// A projection that names its root (`(… is /srv/app)`) shows paths under it from `…`: the leading
// directories of a path (`…/src/a.py`), or the directory a `cd` changes to (`cd … &&`).
const ROOT_NOTE = /^\(… is (\/\S+)\)$/m;
const ROOT_PATH = /(?<=^|[\s'"`=(:,])…\//gm;
const ROOT_CD = /(?<=^|[\s'"`=(:,])cd …(?=$|[\s;&|)])/gm;

/** `body` with the paths it shows from its root written whole. */
function expandRoot(body: string, root: string): string {
  return body.replace(ROOT_PATH, `${root}/`).replace(ROOT_CD, `cd ${root}`);
}

/** The lines under each heading of `body`, by the id of its section in the section table. */
function splitSections(body: string): Map<string, string[]> {
  const idOf = new Map(SECTION_DESCRIPTIONS.map((section) => [section.heading, section.id]));
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of body.split("\n")) {
    if (line.startsWith("## ")) {
      current = [];
      sections.set(idOf.get(line.trim()) ?? line, current);
    } else current?.push(line);
  }
  return sections;
}

function readCommandLine(line: string): CommandLine {
  const head = readHead(line);
  const outcomes: StatedOutcome[] = [];
  let final: StatedOutcome | undefined;
  if (head.rest !== undefined) {
    // An elided `… N more` cites no row, so it is no complete state.
    for (const segment of head.rest.split(", then ")) {
      final = readState(segment);
      if (final) outcomes.push(final);
    }
  }
  // A line's reference is its call's row, else its first outcome's.
  const ref = head.ref ?? outcomes[0]?.ref;
  return {
    ...(ref === undefined ? {} : { ref }),
    display: head.display,
    outcomes,
    ...(final === undefined ? {} : { final }),
  };
}

function readState(segment: string): StatedOutcome | undefined {
  const match = COMPLETE_STATE.exec(segment);
  if (!match) return undefined;
  return withExit(match[1] as string, match[2] as string);
}

function withExit(text: string, ref: string): StatedOutcome {
  const exit = EXIT.exec(text);
  const words = text.replace(EXIT, "").replace(/\s+/g, " ").trim();
  return { words, ref, ...(exit ? { exit: Number(exit[1]) } : {}) };
}

function readClaimLine(line: string): CallClaimLine | undefined {
  const head = readHead(line);
  if (head.tool === undefined) return undefined;
  const state = head.rest === undefined ? null : CLAIM_STATE.exec(head.rest);
  const fixedAt = FIXED_AT.exec(line)?.[1];
  return {
    ...(head.ref === undefined ? {} : { ref: head.ref }),
    tool: head.tool,
    display: head.display,
    ...(state?.[2] === undefined ? {} : { outcome: withExit(state[1] as string, state[2]) }),
    noLaterSuccess: state?.[3] !== undefined,
    ...(fixedAt === undefined ? {} : { fixedAt }),
  };
}

function readFileLine(line: string): FileLine {
  const at = line.lastIndexOf(SEPARATOR);
  return at < 0
    ? { path: line, operations: "" }
    : { path: line.slice(0, at), operations: line.slice(at + SEPARATOR.length) };
}

/**
 * The start of a line naming a call: its first reference, the tool word when one precedes the
 * code span, the span's text, and what follows ` — ` after it (absent when the line was cut
 * inside the span).
 */
function readHead(line: string): { ref?: string; tool?: string; display: string; rest?: string } {
  let text = line;
  const ref = LEADING_REF.exec(text)?.[1];
  while (LEADING_REF.test(text)) text = text.replace(LEADING_REF, "");
  let tool: string | undefined;
  if (!text.startsWith("`")) {
    const space = text.indexOf(" ");
    if (space <= 0) return { ...(ref === undefined ? {} : { ref }), display: "" };
    tool = text.slice(0, space);
    text = text.slice(space + 1);
  }
  const span = readCodeSpan(text);
  return {
    ...(ref === undefined ? {} : { ref }),
    ...(tool === undefined ? {} : { tool }),
    display: span.text,
    ...(span.rest === undefined ? {} : { rest: span.rest }),
  };
}

/**
 * A Markdown code span at the start of `text`: a fence of K backticks, then text holding only
 * shorter runs, then K backticks (padded with one space each side when K > 1).
 */
function readCodeSpan(text: string): { text: string; rest?: string; after?: string } {
  const fence = /^`+/.exec(text)?.[0].length ?? 0;
  if (fence === 0) return { text: "" };
  const runs = /`+/g;
  runs.lastIndex = fence;
  for (let match = runs.exec(text); match; match = runs.exec(text)) {
    if (match[0].length < fence) continue;
    let inner = text.slice(fence, match.index);
    if (fence > 1) inner = inner.replace(/^ /, "").replace(/ $/, "");
    // A call whose shown text does not determine it carries its fingerprint after the span.
    const after = text.slice(match.index + fence).replace(FINGERPRINT, "");
    return after.startsWith(SEPARATOR)
      ? { text: inner, rest: after.slice(SEPARATOR.length), after }
      : { text: inner, after };
  }
  return { text: text.slice(fence).trim() };
}
