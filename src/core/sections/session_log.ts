import type { Analysis } from "../analysis.ts";
import { commandOf, inlineCode, shownCommand } from "../command.ts";
import type { ToolEvent } from "../events.ts";
import { COMMAND_TOOLS, PROCESS_TOOLS, READ_FILE_TOOL, TODO_TOOLS } from "../hermes.ts";
import { cutMiddle, excerpt } from "../excerpt.ts";
import { shortenCommand } from "../command_display.ts";
import { LazyLines } from "../lazy_lines.ts";
import { type Row, type ToolCall, toolLabel } from "../message.ts";
import { isBefore, type Moment, momentOf } from "../moment.ts";
import { describeState, isFailure } from "../outcome_words.ts";
import { renderRef } from "../ref.ts";
import { isUserTurn, withoutRestatement } from "../requests.ts";
import { type RootView, showRoot } from "../root.ts";
import { remembered } from "../remembered.ts";
import { quotesAnything, resultExcerpt } from "../result_excerpt.ts";

const USER_CHARS = 500;
const ASSISTANT_CHARS = 300;
const SYSTEM_CHARS = 200;
const RESULT_CHARS = 240;
const SUBJECT_CHARS = 160;

/** What the projection's sections already show, which the log does not repeat. */
export interface Listed {
  /** Whether a call's command, or every file it worked on, is listed. */
  call(call: ToolCall): boolean;
  /** Whether a row's text is quoted whole. */
  text(row: Row): boolean;
}

/** What the log would repeat if the sections listed everything they may: every call, every reply
 * that closes a turn. */
export const EVERYTHING_LISTED: Listed = {
  call: () => true,
  text: (row) => row.role === "assistant" && row.toolCalls.length === 0,
};

/** The heading of the session log, which Hermes and the merge step look for. */
export const SESSION_LOG_HEADING = "## Detailed Session Log (oldest first)";

const ROLES = ["user", "assistant", "system"] as const;
// Who a user row's note is from when Hermes wrote it (a task list it restored, a job's notice).
const HERMES_NOTE = "hermes";
/** The words log lines write themselves: who spoke, and the tool a nameless call is shown as. */
export const SESSION_LOG_WORDS = `${[...ROLES, HERMES_NOTE].join(" ")} ${toolLabel("")}`;

/**
 * The session log of a window, for what the sections list: one or more lines per row, oldest
 * first (a request, a reply, each call, each result), rendered lazily because the budget keeps
 * only the newest. Rows with a recorded time take the places of such rows in time order (Hermes
 * hands over the request it restates after a compaction ahead of older rows); rows an earlier
 * projection logged (`logged` row ids) are left out. Rows recorded before `before` (when an earlier projection's messages
 * began; Hermes stores its protected head again after a compaction) are split off as `older`, to
 * go before that projection's lines. A call the projection lists (its command in Commands Run,
 * its files in Relevant Files: the returned function's `listed`) has no line, and its result
 * shows only its words, without restating its outcome; such a result with no words of its own
 * has no line either. A file read quotes none of the file (the file still holds it), and a call
 * to the task list has no line, nor its result (Hermes restores the list after a compaction). A
 * reply the projection quotes whole (a turn's close in Decisions & Conclusions) is not repeated. A
 * note Hermes wrote to a user row (a task list it restored, a background job's notice) is
 * `hermes:`, never `user:`.
 */
export function sessionLog(
  analysis: Analysis,
  before: Moment,
  logged: ReadonlySet<number>,
  view: RootView,
): (listed: Listed) => { older: LazyLines; newer: LazyLines } {
  // The event each result row holds, by the row's place in the window.
  const resultOf: (ToolEvent | undefined)[] = new Array(analysis.window.inputMessages);
  for (const event of analysis.events) {
    if (event.resultRow) resultOf[event.resultRow.index] = event;
  }
  const rows = inTimeOrder(
    analysis.window.rows.filter((row) =>
      !analysis.copies.has(row) && !(row.ref.kind === "row" && logged.has(row.ref.id))
    ),
  );
  const older: Row[] = [];
  const newer: Row[] = [];
  for (const row of rows) (isBefore(momentOf(row), before) ? older : newer).push(row);
  // The rows are placed, and each line rendered, once; which lines show depends on what the
  // sections list.
  const texts = new Map<Row, string>();
  const calls = new Map<ToolCall, string>();
  const rendered: RenderedLines = {
    text: (row) => remembered(texts, row, () => textLine(row)),
    // Asked of every message the log leaves out, whose line is then never shown: not kept.
    hasText: (row) => (texts.get(row) ?? textWords(row)) !== "",
    call: (row, call) => remembered(calls, call, () => callLine(row, call, analysis, view)),
  };
  return (listed) => {
    const lazy = (part: readonly Row[]) =>
      new LazyLines(
        part.length,
        (index) => rowLines(part[index] as Row, resultOf, rendered, listed),
        (index) => hasLines(part[index] as Row, resultOf, rendered, listed),
      );
    return { older: lazy(older), newer: lazy(newer) };
  };
}

/** A row's text line (`""` when it quotes nothing) and its calls' lines, rendered once each. */
interface RenderedLines {
  text(row: Row): string;
  /** Whether a row's text line quotes anything. */
  hasText(row: Row): boolean;
  call(row: Row, call: ToolCall): string;
}

/** `rows` with those that have a time sorted by it (stably) in the places they held. */
function inTimeOrder(rows: readonly Row[]): Row[] {
  const timed = rows.filter((row) => row.time !== undefined);
  const sorted = timed.toSorted((a, b) => (a.time as number) - (b.time as number));
  let next = 0;
  return rows.map((row) => (row.time === undefined ? row : sorted[next++] as Row));
}

function rowLines(
  row: Row,
  resultOf: readonly (ToolEvent | undefined)[],
  rendered: RenderedLines,
  listed: Listed,
): string[] {
  if (row.role === "tool") {
    const event = resultOf[row.index];
    const line = event && !restored(event.call) && resultLine(event, listed.call(event.call));
    return line ? [`${renderRef(row.ref)} ${line}`] : [];
  }
  const lines: string[] = [];
  const text = rendered.text(row);
  if (text !== "" && !listed.text(row)) lines.push(text);
  for (const call of row.toolCalls) {
    if (!listed.call(call) && !restored(call)) lines.push(rendered.call(row, call));
  }
  return lines;
}

/** Whether a row has any line (what {@linkcode rowLines} tells without rendering the lines). */
function hasLines(
  row: Row,
  resultOf: readonly (ToolEvent | undefined)[],
  rendered: RenderedLines,
  listed: Listed,
): boolean {
  if (row.role === "tool") {
    const event = resultOf[row.index];
    return event !== undefined && !restored(event.call) &&
      (!listed.call(event.call) || quotesWords(event));
  }
  for (const call of row.toolCalls) if (!listed.call(call) && !restored(call)) return true;
  return !listed.text(row) && rendered.hasText(row);
}

/** Whether Hermes restores what a call left after a compaction (the task list): it has no line. */
function restored(call: ToolCall): boolean {
  return TODO_TOOLS.has(call.name);
}

/** A row's line quoting its text after who wrote it; `""` when it has no text. */
function textLine(row: Row): string {
  const text = textWords(row);
  // A note Hermes wrote to a user row is not the user's.
  const speaker = row.role === "user" && !isUserTurn(row) ? HERMES_NOTE : row.role;
  return text === "" ? "" : `${renderRef(row.ref)} ${speaker}: ${text}`;
}

/** The words a row's text line quotes (`""` for none). */
function textWords(row: Row): string {
  const limit = row.role === "user"
    ? USER_CHARS
    : row.role === "assistant"
    ? ASSISTANT_CHARS
    : SYSTEM_CHARS;
  // A request Hermes restated after a compaction is quoted in its own words.
  return excerpt(row.role === "user" ? withoutRestatement(row.text.trim()) : row.text, limit);
}

/** The line of one of a row's calls: the tool and what it works on. */
function callLine(row: Row, call: ToolCall, analysis: Analysis, view: RootView): string {
  const subject = showRoot(callSubject(call, analysis), view);
  const short = COMMAND_TOOLS.has(call.name) ? shortenCommand : cutMiddle;
  const shown = subject === "" ? "" : `: ${inlineCode(short(subject, SUBJECT_CHARS))}`;
  return `${renderRef(row.ref)} → ${call.label}${shown}`;
}

/**
 * What a call line names: its group's subject, but a process call that reports on a job (whose
 * group is the command that started it) names its own action.
 */
function callSubject(call: ToolCall, analysis: Analysis): string {
  const group = analysis.groupOf.get(call);
  if (group?.job === undefined || !PROCESS_TOOLS.has(call.name)) return group?.subject ?? "";
  const event = analysis.eventOf.get(call);
  const own = event && commandOf(event);
  return own ? shownCommand(own.text) : group.subject;
}

// A result's words, read once however many times the log is laid out (the budget lays it out
// twice).
const RESULT_WORDS = new WeakMap<ToolEvent, string>();

/** The words a result's line quotes (`""` for none), read once. */
function resultWords(event: ToolEvent): string {
  return remembered(
    RESULT_WORDS,
    event,
    () =>
      quotesFile(event)
        ? ""
        : resultExcerpt(event.outcome, COMMAND_TOOLS.has(event.call.name), RESULT_CHARS),
  );
}

/** Whether a result's line quotes any words (told without choosing them where that is cheaper). */
function quotesWords(event: ToolEvent): boolean {
  const words = RESULT_WORDS.get(event);
  if (words !== undefined) return words !== "";
  return !quotesFile(event) &&
    quotesAnything(event.outcome, COMMAND_TOOLS.has(event.call.name), RESULT_CHARS);
}

/** Whether a result's words are a file's, which it still holds (a failed read says why). */
function quotesFile(event: ToolEvent): boolean {
  return event.call.name === READ_FILE_TOOL && !isFailure(event.outcome);
}

/** The line of a result: its outcome and words; of a listed call's, its words only, if any. */
function resultLine(event: ToolEvent, listed: boolean): string | undefined {
  // A listed job's start notice only says what its line says: it started.
  if (listed && event.outcome.kind === "background") return undefined;
  const words = resultWords(event);
  if (listed) return words === "" ? undefined : `← ${event.call.label}: ${words}`;
  return `← ${event.call.label} ${describeState(event.outcome)}${words === "" ? "" : `: ${words}`}`;
}
