import { project } from "../../core/mod.ts";
import { noProgress, type Progress } from "../progress.ts";
import { type UnreadCounts, windowFacts } from "./oracle.ts";
import { readProjection } from "./projection_text.ts";
import {
  type AmbiguousLine,
  type CommandScore,
  type FactScore,
  type FileScore,
  type OutcomeSection,
  scoreWindow,
  WRONG_KINDS,
  type WrongKind,
  type WrongReason,
} from "./score.ts";

/** Budgets the recall bench projects every window at, in tokens. */
export const RECALL_BUDGETS: readonly number[] = [1500, 4000, 8000];

/** A window to score, projected alone (no previous summary). */
export interface RecallWindow {
  readonly id: string;
  readonly rows: readonly unknown[];
  readonly sessionId?: string;
}

/** Windows scored and totalled together: a folder, a file, a database. */
export interface RecallCorpus {
  readonly name: string;
  readonly windows: readonly RecallWindow[];
}

/**
 * Per section, the windows whose kept entries plus omission note equal the oracle's count (not
 * for error names: Errors Seen counts the error lines printed, which name any number of them).
 */
export interface ExactCounts {
  readonly commands: number;
  readonly files: number;
  readonly requests: number;
}

/** One corpus at one budget: the window scores added up. */
export interface RecallTotals {
  readonly corpus: string;
  readonly budgetTokens: number;
  readonly windows: number;
  readonly commands: CommandScore;
  readonly files: FileScore;
  readonly errorNames: FactScore;
  readonly requests: FactScore;
  readonly exactCounts: ExactCounts;
  /** Lines stating an outcome the record contradicts. */
  readonly wrong: number;
  /** Of those, the lines with each kind of contradiction. */
  readonly wrongByKind: Readonly<Record<WrongKind, number>>;
  readonly ambiguous: number;
}

/** A WRONG line, located; `commandText` is transcript text for the private report only. */
export interface WrongFinding {
  readonly corpus: string;
  readonly window: string;
  readonly budgetTokens: number;
  readonly section: OutcomeSection;
  readonly ref: string;
  readonly reasons: readonly WrongReason[];
  readonly commandText: string;
}

/** An ambiguous line, located. */
export interface AmbiguousFinding extends AmbiguousLine {
  readonly corpus: string;
  readonly window: string;
  readonly budgetTokens: number;
}

/** What the oracle left out of a corpus's facts. */
export interface CorpusUnread extends UnreadCounts {
  readonly corpus: string;
}

/** The result of {@linkcode runRecall}. */
export interface RecallRun {
  readonly budgets: readonly number[];
  /** Corpus by corpus, each at every budget; then, with several corpora, `all` at every budget. */
  readonly totals: readonly RecallTotals[];
  readonly wrong: readonly WrongFinding[];
  readonly ambiguous: readonly AmbiguousFinding[];
  readonly unread: readonly CorpusUnread[];
}

/** Projects every window alone at every budget and scores it against the oracle's facts. */
export function runRecall(
  corpora: readonly RecallCorpus[],
  budgets: readonly number[] = RECALL_BUDGETS,
  progress: Progress = noProgress,
): RecallRun {
  const steps = corpora.reduce((sum, corpus) => sum + corpus.windows.length, 0) * budgets.length;
  let done = 0;
  const totals: RecallTotals[] = [];
  const wrong: WrongFinding[] = [];
  const ambiguous: AmbiguousFinding[] = [];
  const unread: CorpusUnread[] = [];
  for (const corpus of corpora) {
    const facts = corpus.windows.map((window) => windowFacts(window.rows));
    unread.push({
      corpus: corpus.name,
      ...addUp([NOTHING_UNREAD, ...facts.map((fact) => fact.unread)]),
    });
    for (const budgetTokens of budgets) {
      const scores = corpus.windows.map((window, index) => {
        const options = {
          budgetTokens,
          ...(window.sessionId ? { sessionId: window.sessionId } : {}),
        };
        const score = scoreWindow(
          facts[index]!,
          readProjection(project(window.rows, options).body),
        );
        progress(++done, steps);
        const where = { corpus: corpus.name, window: window.id, budgetTokens };
        for (const line of score.wrong) {
          const { command, ...rest } = line;
          wrong.push({ ...where, ...rest, commandText: facts[index]!.commands[command]!.text });
        }
        for (const line of score.ambiguous) ambiguous.push({ ...where, ...line });
        return score;
      });
      const exact = (count: (score: (typeof scores)[number]) => FactScore) =>
        scores.filter((score) => count(score).kept + count(score).omitted === count(score).total)
          .length;
      totals.push({
        corpus: corpus.name,
        budgetTokens,
        windows: scores.length,
        commands: addUp([NOTHING.commands, ...scores.map((score) => score.commands)]),
        files: addUp([NOTHING.files, ...scores.map((score) => score.files)]),
        errorNames: addUp([NOTHING.errorNames, ...scores.map((score) => score.errorNames)]),
        requests: addUp([NOTHING.requests, ...scores.map((score) => score.requests)]),
        exactCounts: {
          commands: exact((score) => score.commands),
          files: exact((score) => score.files),
          requests: exact((score) => score.requests),
        },
        wrong: sum(scores.map((score) => score.wrong.length)),
        wrongByKind: kindsOf(scores.flatMap((score) => score.wrong)),
        ambiguous: sum(scores.map((score) => score.ambiguous.length)),
      });
    }
  }
  if (corpora.length > 1) {
    for (const budgetTokens of budgets) {
      totals.push(overall(totals.filter((row) => row.budgetTokens === budgetTokens), budgetTokens));
    }
  }
  return { budgets, totals, wrong, ambiguous, unread };
}

function overall(rows: readonly RecallTotals[], budgetTokens: number): RecallTotals {
  return {
    corpus: "all",
    budgetTokens,
    windows: sum(rows.map((row) => row.windows)),
    commands: addUp(rows.map((row) => row.commands)),
    files: addUp(rows.map((row) => row.files)),
    errorNames: addUp(rows.map((row) => row.errorNames)),
    requests: addUp(rows.map((row) => row.requests)),
    exactCounts: addUp(rows.map((row) => row.exactCounts)),
    wrong: sum(rows.map((row) => row.wrong)),
    wrongByKind: addUp(rows.map((row) => row.wrongByKind)),
    ambiguous: sum(rows.map((row) => row.ambiguous)),
  };
}

function kindsOf(lines: readonly { reasons: readonly WrongReason[] }[]): Record<WrongKind, number> {
  const count = (kind: WrongKind) =>
    lines.filter((line) => line.reasons.some((reason) => reason.kind === kind)).length;
  return Object.fromEntries(WRONG_KINDS.map((kind) => [kind, count(kind)])) as Record<
    WrongKind,
    number
  >;
}

// An empty window's facts and score: every count zero, the start of every sum.
const NOTHING_UNREAD = windowFacts([]).unread;
const NOTHING = scoreWindow(windowFacts([]), readProjection(""));

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Adds up records of counts field by field. */
function addUp<T extends object>(records: readonly T[]): T {
  const total: Record<string, number> = {};
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) total[key] = (total[key] ?? 0) + value;
  }
  return total as T;
}
