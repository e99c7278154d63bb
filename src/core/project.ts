import { type Analysis, analyze, outcomeRef } from "./analysis.ts";
import { type SectionPlan, type SizedSection, sizeSections } from "./budget.ts";
import { focusOf } from "./focus.ts";
import { renderHeader } from "./header.ts";
import { LazyLines } from "./lazy_lines.ts";
import { earliestMoment, type Moment } from "./moment.ts";
import { fitLog, fittedLogSize } from "./log_fit.ts";
import { isCleanSuccess } from "./outcome_words.ts";
import { parsePrevious, type PreviousBlock } from "./previous.ts";
import { parsePreviousRef } from "./ref.ts";
import {
  applyChanges,
  type Change,
  omissionNote,
  type SectionContent,
  type SectionSpec,
} from "./section.ts";
import type { BlockedEntry } from "./sections/blocked.ts";
import type { CommandEntry } from "./sections/commands.ts";
import type { ErrorEntry } from "./sections/errors_fixes.ts";
import { findRoot, rootNote, type RootView, showRoot, WHOLE_PATHS } from "./root.ts";
import { commandOf } from "./command.ts";
import { commandSteps } from "./shell_words.ts";
import type { FileEntry } from "./sections/files.ts";
import { callKey, callName } from "./sections/call_label.ts";
import { fileOps, SAVED_OUTPUT } from "./file_ops.ts";
import { reconcile } from "./sections/reconcile.ts";
import { EVERYTHING_LISTED, type Listed, sessionLog } from "./sections/session_log.ts";
import type { DecisionEntry } from "./sections/decisions.ts";
import type { RequestEntry } from "./requests.ts";
import { remembered } from "./remembered.ts";
import type { CallGroup } from "./calls.ts";
import { LOG_SECTION, type SectionId, type SectionRow, SECTIONS } from "./sections/table.ts";
import type { Projection, ProjectionStats, ProjectOptions, SectionCount } from "./types.ts";

/** Budget used when the caller gives none (tokens). */
export const DEFAULT_BUDGET_TOKENS = 2000;
/** Characters per token: the body never exceeds `budgetTokens × CHARS_PER_TOKEN`. */
export const CHARS_PER_TOKEN = 4;
// Least room worth giving the session log's lines.
const MIN_LOG_LINES_CHARS = 120;

/**
 * Projects a Hermes window (the messages of its summary step) into the Markdown summary: a header
 * line, then the sections of the section table (`sections/table.ts`) in its order and the
 * Detailed Session Log, each line citing its message as `[#N]`. Pure and deterministic: the same input gives the same bytes; any JSON value is
 * accepted and nothing throws; the body never exceeds the budget.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { project } from "./mod.ts";
 * const { body } = project([{ role: "user", content: "Fix the build", _row_id: 7 }], { sessionId: "s1" });
 * assert.match(body, /^## Historical Task Snapshot\n\[#7\] Fix the build$/m);
 * ```
 */
export function project(window: unknown, options: ProjectOptions = {}): Projection {
  const analysis = analyze(window);
  const previous = parsePrevious(options.previous);
  const blocks = previous?.blocks ?? [];
  const focus = focusOf(options.focus);
  const budgetChars = budgetOf(options.budgetTokens) * CHARS_PER_TOKEN;
  const earlierStart = earliestMoment(blocks.map((block) => block.start));

  const plans = agreeOnOutcomes(
    new Map(SECTIONS.map((section) => [
      section.id,
      section.use((spec) => plan(spec, section, blocks, analysis)),
    ])),
    analysis,
  );
  const root = findRoot(sessionPaths(analysis, plans), blocks.at(-1)?.root);
  const view: RootView = root === undefined ? WHOLE_PATHS : { root };
  const header = [
    renderHeader({
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
      ...(options.recall === undefined ? {} : { recall: options.recall }),
      ...span(analysis, earlierStart),
    }),
    ...(root === undefined ? [] : [rootNote(root)]),
  ].join("\n");
  const earlierLog = [...new Set(blocks.flatMap((block) => block.log))];
  const windowLog = sessionLog(analysis, earlierStart, loggedRows(earlierLog), view);
  // The log's lines given what the sections list: this window's older rows, the earlier
  // projections' log, this window's newer rows.
  const logOf = (listed: Listed) => {
    const { older, newer } = windowLog(listed);
    return LazyLines.joined([
      older,
      new LazyLines(earlierLog.length, (index) => [showRoot(earlierLog[index] as string, view)]),
      newer,
    ]);
  };
  // The log's lines as if every call were listed, which the sizing starts from.
  const wantedLog = logOf(EVERYTHING_LISTED);
  const logWanted = wantedLog.groups > 0;
  const logHead = LOG_SECTION.heading.length + 1;
  // What the log takes of a room: its heading and the lines that fit there (rendered only as far as
  // that room), at least the least room its lines are shown in; nothing when no line fits.
  const logSize = (log: LazyLines, room: number) => {
    const lines = logWanted && room - logHead >= MIN_LOG_LINES_CHARS
      ? fittedLogSize(log, room - logHead, focus)
      : 0;
    return lines === 0 ? 0 : logHead + Math.max(lines, MIN_LOG_LINES_CHARS);
  };
  // The log's lines beside the sections the sizing last showed it.
  let shownLog: { sized: readonly SizedSection[]; log: LazyLines } | undefined;
  const { sections, logRoom } = sizeSections(
    plans,
    budgetChars,
    header.length + 2,
    {
      wants: (limit) => logSize(wantedLog, limit),
      shows: (sized, room) => {
        shownLog = { sized, log: logOf(listedIn(analysis, sized)) };
        return logSize(shownLog.log, room);
      },
    },
    focus,
    view,
  );

  // A budget too small for the header holds nothing a reader could use (the sections then took
  // no room either).
  const parts = header.length > budgetChars
    ? []
    : [header, ...sections.filter((section) => section.size > 0).map(renderSection)];
  // The lines the sizing rendered beside these sections are these sections' lines.
  const log = shownLog?.sized === sections ? shownLog.log : logOf(listedIn(analysis, sections));
  const earlierLogOmitted = Math.max(0, ...blocks.map((block) => block.logOmitted));
  const lineRoom = logRoom - logHead;
  const fitted = logWanted && lineRoom >= MIN_LOG_LINES_CHARS
    ? fitLog(log, lineRoom, focus)
    : { kept: [], dropped: log.linedBefore(log.groups) };
  const logOmitted = earlierLogOmitted + fitted.dropped;
  const note = logOmitted > 0 ? [omissionNote(logOmitted, LOG_SECTION.noun)] : [];
  // A log none of whose lines fit still says what it left out, in the room left for it.
  const noteOnly = fitted.kept.length === 0 && note.length > 0 &&
    logHead + (note[0] as string).length + 2 <= logRoom;
  if (fitted.kept.length > 0 || noteOnly) {
    parts.push([LOG_SECTION.heading, ...note, ...fitted.kept].join("\n"));
  }
  const whole = parts.join("\n\n");
  const body = withinBudget(whole, budgetChars);
  return {
    body,
    stats: stats(analysis, sections, { shown: fitted.kept.length, omitted: logOmitted }, {
      merged: previous !== undefined,
      chars: body.length,
      budgetChars,
      safetyCut: whole.length - body.length,
    }),
  };
}

/**
 * What the sections as sized list: a call whose command is shown in Commands Run, or every file
 * it worked on in Relevant Files; a reply Decisions & Conclusions quotes whole, and the request
 * the Historical Task Snapshot quotes whole.
 */
function listedIn(analysis: Analysis, sections: readonly SizedSection[]): Listed {
  const kept = (id: SectionId) =>
    sections[SECTIONS.findIndex((section) => section.id === id)]?.kept ?? [];
  const commands = new Set(
    (kept("commands") as readonly CommandEntry[]).map((entry) => callKey(entry.name)),
  );
  const files = new Set((kept("files") as readonly FileEntry[]).map((entry) => entry.path));
  const quotedWhole = new Set(
    (kept("decisions") as readonly DecisionEntry[]).flatMap((entry) =>
      entry.kind === "conclusion" && entry.ref.kind === "row" ? [entry.ref.id] : []
    ),
  );
  // The latest request, when the snapshot's line shows it whole.
  const snapshot = sections[SECTIONS.findIndex((section) => section.id === "snapshot")];
  const request = snapshot?.kept[0] as RequestEntry | undefined;
  if (request?.ref?.kind === "row" && snapshot?.lines[0]?.endsWith(request.text)) {
    quotedWhole.add(request.ref.id);
  }
  // A command is asked of once per call: its group answers for all of them.
  const commandListed = new Map<CallGroup, boolean>();
  return {
    call(call) {
      const group = analysis.groupOf.get(call);
      if (group === undefined) return false;
      if (group.command) {
        return remembered(
          commandListed,
          group,
          () => commands.has(callKey(callName(group, false))),
        );
      }
      const event = analysis.eventOf.get(call);
      const ops = event === undefined ? [] : fileOps(event);
      return ops.length > 0 && ops.every((op) => files.has(op.path));
    },
    text: (row) => row.ref.kind === "row" && quotedWhole.has(row.ref.id),
  };
}

/** A section's content: the earlier projections' entries, then this window's changes. */
function plan<E>(
  spec: SectionSpec<E>,
  section: SectionRow<SectionId>,
  blocks: readonly PreviousBlock[],
  analysis: Analysis,
): SectionPlan<unknown> {
  const id = section.id;
  let content: SectionContent<E> = { entries: [], omitted: 0 };
  let start: Moment = {};
  for (const block of blocks) {
    const section = block.sections.get(id);
    if (section !== undefined) {
      const changes: Change<E>[] = (section.entries as E[]).map((entry) => ({
        key: spec.key(entry),
        entry,
        addIfNew: true,
        at: block.start,
      }));
      const merged = applyChanges(spec, content, changes, start);
      // A later projection already counts the omissions of the one it merged.
      content = { entries: merged.entries, omitted: Math.max(content.omitted, section.omitted) };
    }
    start = earliestMoment([start, block.start]);
  }
  return {
    spec,
    part: section,
    content: applyChanges(spec, content, spec.changes(analysis), start),
  };
}

/** The plans in table order, Blocked and Errors & Fixes reconciled with Commands Run. */
function agreeOnOutcomes(
  plans: Map<SectionId, SectionPlan<unknown>>,
  analysis: Analysis,
): SectionPlan<unknown>[] {
  const content = <E>(id: SectionId) => plans.get(id)?.content as SectionContent<E>;
  const lastClean = analysis.events.findLast((event) => isCleanSuccess(event.outcome));
  const agreed = reconcile(
    content<CommandEntry>("commands"),
    content<BlockedEntry>("blocked"),
    content<ErrorEntry>("errors"),
    lastClean && outcomeRef(lastClean),
  );
  const replace = (id: SectionId, updated: SectionContent<unknown>) => {
    const current = plans.get(id);
    if (current) plans.set(id, { ...current, content: updated });
  };
  replace("blocked", agreed.blocked);
  replace("errors", agreed.errors);
  return SECTIONS.map((section) => plans.get(section.id) as SectionPlan<unknown>);
}

function renderSection(section: SizedSection): string {
  return [section.heading, ...section.lines].join("\n");
}

/**
 * The absolute paths the session's work names, of which the projection's root is found: the
 * directories commands change to or run in, and the files of Relevant Files (this window's and the
 * earlier projections') but the outputs Hermes saved.
 */
function sessionPaths(analysis: Analysis, plans: readonly SectionPlan<unknown>[]): string[] {
  const paths: string[] = [];
  for (const group of analysis.groups) {
    for (const event of group.command ? group.events.slice(0, 1) : []) {
      const command = commandOf(event);
      if (command === undefined) continue;
      paths.push(...(commandSteps(command.text)?.cd ?? []));
      if (command.workdir !== "") paths.push(command.workdir);
    }
  }
  const files = plans[SECTIONS.findIndex((section) => section.id === "files")];
  for (const entry of (files?.content.entries ?? []) as readonly FileEntry[]) {
    // Where Hermes saves outputs is its own directory, not the session's.
    if (entry.ops.some((tally) => tally.op !== SAVED_OUTPUT)) paths.push(entry.path);
  }
  return paths;
}

/** The time span the projection covers: its window's rows and the earlier projections'. */
function span(analysis: Analysis, earlierStart: Moment): { from?: number; to?: number } {
  const times = analysis.window.rows.flatMap((row) => (row.time === undefined ? [] : [row.time]));
  if (times.length === 0) return {};
  const from = Math.min(...times, ...(earlierStart.time === undefined ? [] : [earlierStart.time]));
  return { from, to: Math.max(...times) };
}

/** The row ids earlier projections' log lines begin with. */
function loggedRows(log: readonly string[]): Set<number> {
  const ids = new Set<number>();
  for (const line of log) {
    const ref = parsePreviousRef(line.slice(0, line.indexOf(" ")));
    if (ref?.kind === "row") ids.add(ref.id);
  }
  return ids;
}

function budgetOf(tokens: number | undefined): number {
  return typeof tokens === "number" && Number.isFinite(tokens) && tokens >= 1
    ? Math.floor(tokens)
    : DEFAULT_BUDGET_TOKENS;
}

function stats(
  analysis: Analysis,
  sections: readonly SizedSection[],
  log: SectionCount,
  body: Pick<ProjectionStats, "merged" | "chars" | "budgetChars" | "safetyCut">,
): ProjectionStats {
  const counts = Object.fromEntries(SECTIONS.map((section, index) => {
    const sized = sections[index];
    return [section.id, { shown: sized?.kept.length ?? 0, omitted: sized?.omitted ?? 0 }];
  })) as Record<SectionId, SectionCount>;
  const errors = (sections[SECTIONS.findIndex((section) => section.id === "errors")]?.kept ??
    []) as readonly ErrorEntry[];
  return {
    inputMessages: analysis.window.inputMessages,
    skippedMessages: analysis.window.skippedMessages,
    invalidArguments: analysis.window.invalidArguments,
    sections: { ...counts, log },
    fixes: errors.filter((entry) => entry.fixedAt !== undefined).length,
    ...body,
  };
}

/** Last line of defence: cut at a line boundary so the body can never exceed the budget. */
function withinBudget(body: string, limit: number): string {
  if (body.length <= limit) return body;
  const end = body.lastIndexOf("\n", limit);
  return end > 0 ? body.slice(0, end).trimEnd() : "";
}
