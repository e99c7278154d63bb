import { analyze } from "./analysis.ts";
import { type Draft, draftSize, fitLog, LOG_NOUN, renderDraft, shrinkDrafts } from "./budget.ts";
import { type Focus, focusOf } from "./focus.ts";
import { parsePrevious } from "./previous.ts";
import {
  capLines,
  type Entry,
  mergeEntries,
  omissionNote,
  type PreviousSection,
} from "./section.ts";
import { blockedEntries } from "./sections/blocked.ts";
import { commandEntries, needsAttention } from "./sections/commands.ts";
import { errorNameEntries } from "./sections/error_names.ts";
import { errorsFixesEntries } from "./sections/errors_fixes.ts";
import { fileEntries } from "./sections/files.ts";
import { goalLines, snapshotLine } from "./sections/goal.ts";
import { SESSION_LOG_HEADING, sessionLog, sessionLogNote } from "./sections/session_log.ts";
import type { Projection, ProjectionStats, ProjectOptions } from "./types.ts";

/** Budget used when the caller gives none (tokens). */
export const DEFAULT_BUDGET_TOKENS = 2000;
/** Characters per token: the body never exceeds `budgetTokens × CHARS_PER_TOKEN`. */
export const CHARS_PER_TOKEN = 4;
/** Most entries each section keeps; the oldest go first. */
export const SECTION_CAPS = {
  requests: 8,
  blocked: 12,
  fixes: 12,
  errorNames: 20,
  files: 40,
  commands: 25,
} as const;
// Share of the budget the structured sections keep when the session log competes for room.
const STRUCTURED_SHARE = 0.6;
// Least room worth giving the session log's lines.
const MIN_LOG_CHARS = 200;

/**
 * Projects a Hermes window (the messages of its summary step) into the Markdown summary: Historical
 * Task Snapshot, Goal, Blocked, Errors & Fixes, Error Names Seen, Relevant Files, Commands Run and
 * the Detailed Session Log, each line citing its message as `[#N]`. Pure and deterministic: the same
 * input gives the same bytes; any JSON value is accepted and nothing throws; the body never exceeds
 * the budget.
 *
 * @example
 * ```ts
 * import { project } from "./mod.ts";
 * const { body } = project([{ role: "user", content: "Fix the build", _row_id: 7 }], { sessionId: "s1" });
 * body.startsWith("## Historical Task Snapshot\n[#7] Fix the build"); // true
 * ```
 */
export function project(window: unknown, options: ProjectOptions = {}): Projection {
  const analysis = analyze(window);
  const previous = parsePrevious(options.previous);
  const focus = focusOf(options.focus);
  const budgetChars = budgetOf(options.budgetTokens) * CHARS_PER_TOKEN;

  const snapshot = snapshotLine(analysis);
  const snapshotDraft: Draft = {
    heading: "## Historical Task Snapshot",
    noun: "lines",
    lines: snapshot ? [snapshot] : [...(previous?.snapshot ?? [])].slice(0, 2),
    omitted: 0,
    pinned: 1,
  };
  const goal = draft("## Goal", "requests", previous?.goal, goalLines(analysis).map(goalEntry), 1);
  // A request can reach a later window than newer ones (Hermes unpins the head after the first
  // compaction), so requests are put back in the order they were made.
  goal.lines.sort((a, b) => Math.sign(storedOrder(a) - storedOrder(b)) || 0);
  const blocked = draft(
    "## Blocked",
    "blocked entries",
    previous?.blocked,
    blockedEntries(analysis),
  );
  const errors = draft(
    "## Errors & Fixes",
    "errors",
    previous?.errorsFixes,
    errorsFixesEntries(analysis),
  );
  const names = draft(
    "## Error Names Seen",
    "error names",
    previous?.errorNames,
    errorNameEntries(analysis),
  );
  const files = draft("## Relevant Files", "files", previous?.files, fileEntries(analysis));
  const commands = draft(
    "## Commands Run",
    "commands",
    previous?.commands,
    commandEntries(analysis),
    0,
    needsAttention,
  );
  const drafts = [snapshotDraft, goal, blocked, errors, names, files, commands];
  capDraft(goal, SECTION_CAPS.requests, focus);
  capDraft(blocked, SECTION_CAPS.blocked, focus);
  capDraft(errors, SECTION_CAPS.fixes, focus);
  capDraft(names, SECTION_CAPS.errorNames, focus);
  capDraft(files, SECTION_CAPS.files, focus);
  capDraft(commands, SECTION_CAPS.commands, focus);

  const log = sessionLog(analysis);
  const previousLog = previous?.log ?? [];
  const logHead = `${SESSION_LOG_HEADING}\n${sessionLogNote(options.sessionId)}`;
  const logFull = logHead.length + log.sizeUpTo(budgetChars) +
    previousLog.reduce((sum, line) => sum + line.length + 1, 0);
  // The log earns its heading and note only when the budget can leave it room for some lines.
  const logFits = budgetChars * (1 - STRUCTURED_SHARE) >= logHead.length + MIN_LOG_CHARS;
  const structured = drafts.reduce((sum, item) => sum + draftSize(item), 0);
  if (structured + logFull > budgetChars) {
    const limit = logFits
      ? Math.max(budgetChars - logFull, Math.floor(budgetChars * STRUCTURED_SHARE))
      : budgetChars;
    shrinkDrafts(
      drafts,
      [names, files, commands, errors, blocked, goal, snapshotDraft],
      limit,
      focus,
    );
  }
  const parts = drafts.map(renderDraft).filter((part) => part !== "");
  const used = parts.reduce((sum, part) => sum + part.length + 2, 0);
  const room = budgetChars - used - logHead.length - 1;
  const fitted = room >= MIN_LOG_CHARS
    ? fitLog(previousLog, log, room, focus)
    : { kept: [], dropped: previousLog.length + log.groups };
  const logOmitted = (previous?.logOmitted ?? 0) + fitted.dropped;
  if (fitted.kept.length > 0) {
    const note = logOmitted > 0 ? [omissionNote(logOmitted, LOG_NOUN)] : [];
    parts.push([logHead, ...note, ...fitted.kept].join("\n"));
  }
  const body = withinBudget(parts.join("\n\n"), budgetChars);

  const stats: ProjectionStats = {
    inputMessages: analysis.window.inputMessages,
    skippedMessages: analysis.window.skippedMessages,
    invalidArguments: analysis.window.invalidArguments,
    requests: goal.lines.length,
    commands: commands.lines.length,
    files: files.lines.length,
    errors: errors.lines.length,
    errorNames: names.lines.length,
    blocked: blocked.lines.length,
    fixes: errors.lines.filter((line) => line.includes(" → fixed at ")).length,
    logLines: fitted.kept.length,
    omitted: {
      requests: goal.omitted,
      files: files.omitted,
      commands: commands.omitted,
      blocked: blocked.omitted,
      fixes: errors.omitted,
      errorNames: names.omitted,
      logEntries: logOmitted,
    },
    merged: previous !== undefined,
    chars: body.length,
    budgetChars,
  };
  return { body, stats };
}

function budgetOf(tokens: number | undefined): number {
  return typeof tokens === "number" && Number.isFinite(tokens) && tokens >= 1
    ? Math.floor(tokens)
    : DEFAULT_BUDGET_TOKENS;
}

/** A line's `[#N]` row id, for ordering; lines without one sort last, in their order. */
function storedOrder(line: string): number {
  const match = /^\[#(\d+)\]/.exec(line);
  return match ? Number(match[1]) : Number.POSITIVE_INFINITY;
}

function goalEntry(line: string): Entry {
  return { key: line.slice(0, line.indexOf("]") + 1), line };
}

function draft(
  heading: string,
  noun: string,
  previous: PreviousSection | undefined,
  entries: readonly Entry[],
  pinned = 0,
  prefer?: (line: string) => boolean,
): Draft {
  const merged = mergeEntries(previous, entries);
  const lines = [...merged.lines];
  return { heading, noun, lines, omitted: merged.omitted, pinned, ...(prefer ? { prefer } : {}) };
}

function capDraft(target: Draft, limit: number, focus: Focus): void {
  const pinned = target.lines.slice(0, target.pinned);
  const rest = target.lines.slice(target.pinned);
  const { kept, dropped } = capLines(rest, limit - pinned.length, focus, target.prefer);
  target.lines = [...pinned, ...kept];
  target.omitted += dropped;
}

/** Last line of defence: cut at a line boundary so the body can never exceed the budget. */
function withinBudget(body: string, limit: number): string {
  if (body.length <= limit) return body;
  const end = body.lastIndexOf("\n", limit);
  return end > 0 ? body.slice(0, end).trimEnd() : "";
}
