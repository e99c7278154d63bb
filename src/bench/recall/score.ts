/**
 * Scores one projection against its window's facts. A line is matched to a command by the row it
 * cites first (a row that made a call of the command) and a display consistent with the full
 * command (one run in a working directory may show it changed to first, `cd DIR && …`); a line two
 * commands could own counts for neither and is reported as ambiguous.
 *
 * Outcomes are judged by exit codes only. A Commands Run line's last state is its final outcome:
 * right when its `(exit N)` equals the last run's exit code, WRONG when it differs, unknown when it
 * states no exit code (or the line was cut before it), unproven when the record holds no exit
 * code for the last run. Every state with an exit code and a reference is also a statement about
 * the run it cites, and is WRONG when that row is no run of the command or exited otherwise;
 * Blocked's `no later success` is WRONG when a later run exited 0, and a fix (`→ fixed at`) is
 * WRONG when the cited row is no run of the command, exited non-zero, or was followed by a failure.
 *
 * @module
 */
import { showsText } from "./display_match.ts";
import type { CommandFact, CommandRun, WindowFacts } from "./oracle.ts";
import type { CallClaimLine, ProjectionText, StatedOutcome } from "./projection_text.ts";

/** Commands Run against the window's distinct commands. */
export interface CommandScore {
  readonly total: number;
  /** Commands whose last run's exit code is recorded. */
  readonly checkable: number;
  readonly present: number;
  /** Present with the final exit code stated and equal to the record, and no WRONG line. */
  readonly right: number;
  /** Present with a WRONG line. */
  readonly wrong: number;
  /** Present with a final exit code stated where the record holds none. */
  readonly unproven: number;
  readonly kept: number;
  readonly omitted: number;
  /** Lines that match no command of the window. */
  readonly unmatched: number;
  /**
   * Lines of Commands Run, Blocked and Errors & Fixes that show the same command text as another
   * line of their section naming a different command.
   */
  readonly sameText: number;
}

/** A section of facts known by name, path or reference: files, error names, requests. */
export interface FactScore {
  readonly total: number;
  readonly present: number;
  readonly kept: number;
  readonly omitted: number;
  readonly unmatched: number;
}

/** Relevant Files: also whether the line names every operation done to the file. */
export interface FileScore extends FactScore {
  readonly operationsNamed: number;
}

/** The sections whose lines state outcomes. */
export type OutcomeSection = "commands" | "blocked" | "errorsFixes";

/**
 * What a WRONG line got wrong: the command's final outcome, a run it cites (not a run of the
 * command, or one that exited otherwise), `no later success` after a success, or a fix.
 */
export type WrongKind = (typeof WRONG_KINDS)[number];

/** Every {@linkcode WrongKind}. */
export const WRONG_KINDS = ["final", "run", "noLaterSuccess", "fix"] as const;

/** One contradiction, described with exit codes and references only. */
export interface WrongReason {
  readonly kind: WrongKind;
  readonly detail: string;
}

/** A line whose stated outcome the record contradicts. */
export interface WrongLine {
  readonly section: OutcomeSection;
  /** The line's first reference. */
  readonly ref: string;
  /** Index of the command in {@linkcode WindowFacts.commands}. */
  readonly command: number;
  readonly reasons: readonly WrongReason[];
}

/** A line that two or more distinct facts could own. */
export interface AmbiguousLine {
  readonly section: OutcomeSection | "files" | "errorNames";
  readonly ref?: string;
}

/** The score of one projection. */
export interface WindowScore {
  readonly commands: CommandScore;
  readonly files: FileScore;
  readonly errorNames: FactScore;
  readonly requests: FactScore;
  readonly wrong: readonly WrongLine[];
  readonly ambiguous: readonly AmbiguousLine[];
}

// The tools whose calls are commands, as lines name them, and the fact tool each stands for.
const COMMAND_TOOLS: ReadonlyMap<string, string> = new Map([
  ["terminal", "terminal"],
  ["execute_code", "execute_code"],
  ["process", "process"],
  ["process_manage", "process"],
]);

/** Scores the parsed projection `text` against `facts`. */
export function scoreWindow(facts: WindowFacts, text: ProjectionText): WindowScore {
  const wrong: WrongLine[] = [];
  const ambiguous: AmbiguousLine[] = [];
  const verdicts = new Map<number, { right: boolean; wrong: boolean; unproven: boolean }>();
  let unmatched = 0;
  const shown = new SameText();
  for (const line of text.commands.lines) {
    const found = matchCommand(facts.commands, line.ref, line.display);
    shown.add("commands", line.display, found);
    if (found === "ambiguous") ambiguous.push(refOnly("commands", line.ref));
    if (typeof found !== "number") {
      if (found === undefined) unmatched++;
      continue;
    }
    const fact = facts.commands[found]!;
    const verdict = verdicts.get(found) ?? { right: false, wrong: false, unproven: false };
    verdicts.set(found, verdict);
    const reasons = line.outcomes.flatMap((outcome) => citedRunReasons(fact, outcome));
    const final = line.final?.exit;
    if (final !== undefined && fact.finalExit === undefined) verdict.unproven = true;
    else if (final !== undefined && final !== fact.finalExit) {
      reasons.unshift({
        kind: "final",
        detail: `final exit ${final} stated, last run exited ${fact.finalExit}`,
      });
    } else if (final !== undefined) verdict.right = true;
    if (reasons.length > 0) {
      verdict.wrong = true;
      wrong.push({ section: "commands", ref: line.ref!, command: found, reasons });
    }
  }
  for (
    const [section, lines] of [
      ["blocked", text.blocked.lines],
      ["errorsFixes", text.errorsFixes.lines],
    ] as const
  ) {
    for (const line of lines) {
      const tool = COMMAND_TOOLS.get(line.tool);
      if (tool === undefined) continue;
      const found = matchCommand(facts.commands, line.ref, line.display, tool);
      shown.add(section, line.display, found);
      if (found === "ambiguous") ambiguous.push(refOnly(section, line.ref));
      if (typeof found !== "number") continue;
      const reasons = claimReasons(facts.commands[found]!, line);
      if (reasons.length > 0) wrong.push({ section, ref: line.ref!, command: found, reasons });
    }
  }
  const judged = [...verdicts.values()];
  const files = scoreFiles(facts, text, ambiguous);
  return {
    commands: {
      total: facts.commands.length,
      checkable: facts.commands.filter((fact) => fact.finalExit !== undefined).length,
      present: verdicts.size,
      right: judged.filter((verdict) => verdict.right && !verdict.wrong).length,
      wrong: judged.filter((verdict) => verdict.wrong).length,
      unproven: judged.filter((verdict) => verdict.unproven).length,
      kept: text.commands.lines.length,
      omitted: text.commands.omitted,
      unmatched,
      sameText: shown.count(),
    },
    files,
    errorNames: scoreByName(facts, text, ambiguous),
    requests: scoreRequests(facts, text),
    wrong,
    ambiguous,
  };
}

/** The commands each section's lines show under each text, to count texts shown for several. */
class SameText {
  readonly #owners = new Map<string, (number | string)[]>();

  /** Notes that a line of `section` shows `display` for command `found` (or an unknown one). */
  add(section: string, display: string, found: number | "ambiguous" | undefined): void {
    const key = `${section}\u0000${display}`;
    const owners = this.#owners.get(key) ?? [];
    this.#owners.set(key, owners);
    // A line matched to no one command counts as a command of its own.
    owners.push(typeof found === "number" ? found : `line ${owners.length}`);
  }

  /** The lines whose text another line of their section shows for a different command. */
  count(): number {
    let count = 0;
    for (const owners of this.#owners.values()) {
      if (new Set(owners).size > 1) count += owners.length;
    }
    return count;
  }
}

/**
 * The command a line names: the index of the one command that has a call in the row the line
 * cites first and whose text the line's display is consistent with; `"ambiguous"` when several
 * are; `undefined` when none is.
 */
function matchCommand(
  commands: readonly CommandFact[],
  ref: string | undefined,
  display: string,
  tool?: string,
): number | "ambiguous" | undefined {
  if (ref === undefined) return undefined;
  const candidates: number[] = [];
  commands.forEach((fact, index) => {
    if (tool !== undefined && fact.tool !== tool) return;
    const cited = (run: CommandRun) =>
      run.callRef === ref || run.resultRef === ref || run.copies?.includes(ref);
    if (!fact.runs.some(cited)) return;
    if (shownForms(fact).some((form) => showsText(display, form))) candidates.push(index);
  });
  return candidates.length === 1 ? candidates[0] : candidates.length > 1 ? "ambiguous" : undefined;
}

/**
 * The texts a line may show for a command: its text (`text &` for a job), and, for one run in a
 * working directory, the same after changing to it (`cd DIR && text`, DIR as given or in single
 * quotes).
 */
function shownForms(fact: CommandFact): string[] {
  const texts = fact.background ? [fact.text, `${fact.text} &`] : [fact.text];
  const dir = fact.workdir;
  if (dir === undefined) return texts;
  return [
    ...texts,
    ...[dir, `'${dir}'`].flatMap((cd) => texts.map((text) => `cd ${cd} && ${text}`)),
  ];
}

/**
 * The run a state cites: by its result row (or a copy of it), else by its call row when only one
 * run has it.
 */
function runAt(fact: CommandFact, ref: string): number {
  const byResult = fact.runs.findIndex((run) => run.resultRef === ref || run.copies?.includes(ref));
  if (byResult >= 0) return byResult;
  const byCall = fact.runs.flatMap((run, index) => (run.callRef === ref ? [index] : []));
  return byCall.length === 1 ? byCall[0]! : -1;
}

function citedRunReasons(fact: CommandFact, outcome: StatedOutcome): WrongReason[] {
  if (outcome.exit === undefined) return [];
  const at = runAt(fact, outcome.ref);
  const stated = `exit ${outcome.exit} stated at [${outcome.ref}]`;
  if (at < 0) return [{ kind: "run", detail: `${stated}, not a run of this command` }];
  const exit = fact.runs[at]!.exit;
  return exit !== undefined && exit !== outcome.exit
    ? [{ kind: "run", detail: `${stated}, that run exited ${exit}` }]
    : [];
}

function claimReasons(fact: CommandFact, line: CallClaimLine): WrongReason[] {
  const reasons = line.outcome ? citedRunReasons(fact, line.outcome) : [];
  const cited = line.outcome ? runAt(fact, line.outcome.ref) : -1;
  if (line.noLaterSuccess && cited >= 0) {
    const later = laterRun(fact.runs, cited, (exit) => exit === 0);
    if (later) {
      reasons.push({
        kind: "noLaterSuccess",
        detail: `no later success stated, [${refOfRun(later)}] exited 0`,
      });
    }
  }
  if (line.fixedAt !== undefined) {
    const at = runAt(fact, line.fixedAt);
    const exit = fact.runs[at]?.exit;
    const stated = `fixed at [${line.fixedAt}] stated`;
    const later = at < 0 ? undefined : laterRun(fact.runs, at, (exit) => exit !== 0);
    const detail = at < 0
      ? `${stated}, not a run of this command`
      : exit !== undefined && exit !== 0
      ? `${stated}, that run exited ${exit}`
      : later
      ? `${stated}, [${refOfRun(later)}] exited ${later.exit} after it`
      : undefined;
    if (detail !== undefined) reasons.push({ kind: "fix", detail });
  }
  return reasons;
}

function laterRun(
  runs: readonly CommandRun[],
  after: number,
  test: (exit: number) => boolean,
): CommandRun | undefined {
  return runs.slice(after + 1).find((run) => run.exit !== undefined && test(run.exit));
}

function refOfRun(run: CommandRun): string {
  return run.resultRef ?? run.callRef;
}

function refOnly(section: AmbiguousLine["section"], ref: string | undefined): AmbiguousLine {
  return ref === undefined ? { section } : { section, ref };
}

const OPERATION_WORDS = /\b(read|written|modified|searched|deleted|saved)\b/g;

function scoreFiles(
  facts: WindowFacts,
  text: ProjectionText,
  ambiguous: AmbiguousLine[],
): FileScore {
  const present = new Map<number, boolean>();
  let unmatched = 0;
  for (const line of text.files.lines) {
    const candidates = facts.files.flatMap((fact, index) =>
      showsText(line.path, fact.path) ? [index] : []
    );
    if (candidates.length !== 1) {
      if (candidates.length === 0) unmatched++;
      else ambiguous.push({ section: "files" });
      continue;
    }
    const index = candidates[0]!;
    const named = new Set([...line.operations.matchAll(OPERATION_WORDS)].map((match) => match[1]));
    const all = facts.files[index]!.operations.every((operation) => named.has(operation));
    present.set(index, (present.get(index) ?? false) || all);
  }
  return {
    total: facts.files.length,
    present: present.size,
    operationsNamed: [...present.values()].filter(Boolean).length,
    kept: text.files.lines.length,
    omitted: text.files.omitted,
    unmatched,
  };
}

function scoreByName(
  facts: WindowFacts,
  text: ProjectionText,
  ambiguous: AmbiguousLine[],
): FactScore {
  const present = new Set<number>();
  let unmatched = 0;
  for (const shown of text.errorNames.lines) {
    // An error line that names the error (`KeyError: 'sku'`), or shows the line a command printed
    // (folded and perhaps cut).
    const candidates = facts.errorNames.flatMap((fact, index) =>
      namesError(shown, fact.name) || showsText(shown, fact.name) ? [index] : []
    );
    if (candidates.length === 1) present.add(candidates[0]!);
    else if (candidates.length === 0) unmatched++;
    else ambiguous.push({ section: "errorNames" });
  }
  return {
    total: facts.errorNames.length,
    present: present.size,
    kept: text.errorNames.lines.length,
    omitted: text.errorNames.omitted,
    unmatched,
  };
}

/** Whether an error line names `name` as its error: as a word followed by `:` or the line's end. */
function namesError(line: string, name: string): boolean {
  return new RegExp(`(?:^|[\\s.])${RegExp.escape(name)}(?::|$)`).test(line);
}

function scoreRequests(facts: WindowFacts, text: ProjectionText): FactScore {
  const cited = new Set(text.requests.lines);
  const rows = facts.requests.map((request) => [request.ref, ...(request.copies ?? [])]);
  const known = new Set(rows.flat());
  return {
    total: facts.requests.length,
    present: rows.filter((refs) => refs.some((ref) => cited.has(ref))).length,
    kept: text.requests.lines.length,
    omitted: text.requests.omitted,
    unmatched: text.requests.lines.filter((ref) => !known.has(ref)).length,
  };
}
