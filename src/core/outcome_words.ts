/**
 * The vocabulary of outcomes, written once: every kind of outcome a tool result can report, what
 * it counts as (a success, a failure, a refusal, or none of these), the words every line of a
 * projection states it in, and the grammar those words are read back with. Sections, the session
 * log, the previous-summary reader and the proofs all derive from this table.
 *
 * @module
 */
import { EXIT_ANSWERS, EXIT_WAITS, type ExitMeaning } from "./exit_meaning.ts";

/**
 * What an outcome counts as: the call worked (`success`), did not (`failure`: fixable by a later
 * identical success), was refused or awaits approval (`refusal`), or says neither (`none`: it ran
 * without an exit code, started in the background, was killed on request, …).
 */
export type Verdict = "success" | "failure" | "refusal" | "none";

/** An outcome as a line states it: its kind and what qualifies it. */
export interface OutcomeState {
  readonly kind: OutcomeKind;
  readonly exitCode?: number;
  /** For `answer` and `unfinished`: what the non-zero exit status means (`no match`, …). */
  readonly meaning?: ExitMeaning;
  /** A command that exited 0 but printed an error line. */
  readonly printedError?: boolean;
  /**
   * For `relayed`: the program whose exit status the command's is, which only passed on what the
   * work before it printed (`tail` of `pytest | tail`, `true` of `make || true`).
   */
  readonly exitOf?: string;
}

interface Wording {
  readonly verdict: Verdict;
  /** The words for `state`, given its ` (exit N)` (or ""). */
  readonly words: (state: OutcomeState, exit: string) => string;
  /**
   * The grammar of those words (anchored at the start): group `exit` holds the exit status and
   * `meaning` or `printed` what qualifies it, where the kind has them.
   */
  readonly read: RegExp;
  /** Older spellings of the same outcome, read but never written (the session log's before 0.3). */
  readonly aliases?: readonly RegExp[];
}

const EXIT = String.raw`(?: \(exit (?<exit>-?\d{1,10})\))?`;
const PRINTED = " but printed an error";

/** Every kind of outcome, with its verdict and words; the order in which line grammars are tried. */
const WORDINGS = {
  succeeded: {
    verdict: "success",
    words: (state, exit) => `succeeded${exit}${state.printedError ? PRINTED : ""}`,
    read: new RegExp(`^succeeded${EXIT}(?<printed>${PRINTED})?`),
    aliases: [/^exit (?<exit>0)\b/],
  },
  failed: {
    verdict: "failure",
    words: (_state, exit) => (exit === "" ? "failed (error)" : `failed${exit}`),
    read: /^failed \((?:exit (?<exit>-?\d{1,10})|error)\)/,
    aliases: [/^ERROR(?: exit (?<exit>-?\d{1,10}))?/],
  },
  relayed: {
    verdict: "none",
    words: (state) =>
      `ran (exit ${state.exitCode ?? 0} of ${state.exitOf ?? "?"})${
        state.printedError ? PRINTED : ""
      }`,
    read: new RegExp(
      String.raw`^ran \(exit (?<exit>-?\d{1,10}) of (?<of>[^\s()]{1,64})\)(?<printed>${PRINTED})?`,
    ),
  },
  answer: {
    verdict: "success",
    words: (state, exit) => `${state.meaning ?? "false"}${exit}`,
    read: meaningGrammar(EXIT_ANSWERS),
  },
  unfinished: {
    verdict: "none",
    words: (state, exit) => `${state.meaning ?? EXIT_WAITS[0]}${exit}`,
    read: meaningGrammar(EXIT_WAITS),
  },
  "no-exit": { verdict: "none", words: () => "ran (no exit code)", read: /^ran \(no exit code\)/ },
  ok: { verdict: "success", words: () => "ok", read: /^ok\b/ },
  error: { verdict: "failure", words: () => "error", read: /^error\b/ },
  blocked: {
    verdict: "refusal",
    words: (_state, exit) => `blocked${exit}`,
    read: new RegExp(`^blocked${EXIT}`),
    aliases: [/^BLOCKED(?: exit (?<exit>-?\d{1,10}))?/],
  },
  pending: {
    verdict: "refusal",
    words: () => "pending approval",
    read: /^pending approval/,
    aliases: [/^PENDING APPROVAL/],
  },
  timeout: {
    verdict: "failure",
    words: (_state, exit) => `timed out${exit}`,
    read: new RegExp(`^timed out${EXIT}`),
    aliases: [/^TIMED OUT(?: exit (?<exit>-?\d{1,10}))?/],
  },
  interrupted: {
    verdict: "failure",
    words: (_state, exit) => `interrupted${exit}`,
    read: new RegExp(`^interrupted${EXIT}`),
    aliases: [/^INTERRUPTED(?: exit (?<exit>-?\d{1,10}))?/],
  },
  background: {
    verdict: "none",
    words: () => "started in background",
    read: /^started in background/,
  },
  running: { verdict: "none", words: () => "still running", read: /^still running/ },
  killed: {
    verdict: "none",
    words: (_state, exit) => `killed${exit}`,
    read: new RegExp(`^killed${EXIT}`),
  },
  unknown: { verdict: "none", words: () => "output cleared", read: /^output cleared/ },
  missing: { verdict: "none", words: () => "no result", read: /^no result/ },
} as const satisfies Record<string, Wording>;

/** The grammar of an exit status's meaning, one of `meanings`, and the status. */
function meaningGrammar(meanings: readonly string[]): RegExp {
  return new RegExp(`^(?<meaning>${meanings.join("|")}) \\(exit (?<exit>-?\\d{1,10})\\)`);
}

/** What a tool result says happened. */
export type OutcomeKind = keyof typeof WORDINGS;

const KINDS = Object.keys(WORDINGS) as OutcomeKind[];

/** What an outcome of `kind` counts as. */
export function verdictOf(kind: OutcomeKind): Verdict {
  return WORDINGS[kind].verdict;
}

/**
 * The kind of outcome an exit status's meaning makes: an answer (the call worked), or, for a wait,
 * an unfinished one.
 */
export function meaningKind(meaning: ExitMeaning): "answer" | "unfinished" {
  return (EXIT_WAITS as readonly string[]).includes(meaning) ? "unfinished" : "answer";
}

/** Whether an outcome counts as the call working (an error it printed aside). */
export function isSuccess(state: OutcomeState): boolean {
  return verdictOf(state.kind) === "success";
}

/** Whether an outcome counts as the call failing (fixable by a later identical success). */
export function isFailure(state: OutcomeState): boolean {
  return verdictOf(state.kind) === "failure";
}

/** Whether an outcome means the call was refused or is waiting for the user's approval. */
export function isBlocked(state: OutcomeState): boolean {
  return verdictOf(state.kind) === "refusal";
}

/** Whether an outcome decides where a call stands: a success, a failure or a refusal. */
export function isDecisive(state: OutcomeState): boolean {
  return verdictOf(state.kind) !== "none";
}

/** Whether an outcome is a clean success: it worked and printed no error. */
export function isCleanSuccess(state: OutcomeState): boolean {
  return isSuccess(state) && state.printedError !== true;
}

/** Whether an outcome is worth an Errors & Fixes entry: a failure, or a success that printed an error. */
export function isTrouble(state: OutcomeState): boolean {
  return isFailure(state) || state.printedError === true;
}

/** The state of an outcome, without what else it carries. */
export function stateOf(outcome: OutcomeState): OutcomeState {
  return {
    kind: outcome.kind,
    ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
    ...(outcome.meaning === undefined ? {} : { meaning: outcome.meaning }),
    ...(outcome.printedError ? { printedError: true } : {}),
    ...(outcome.exitOf === undefined ? {} : { exitOf: outcome.exitOf }),
  };
}

/**
 * The words for an outcome: `succeeded (exit 0)`, `failed (exit 1)`, `no match (exit 1)`,
 * `ran (exit 0 of tail)`, `ran (no exit code)`, `blocked`, `pending approval`, `timed out`, …
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeState } from "./outcome_words.ts";
 * assert.equal(describeState({ kind: "failed", exitCode: 1 }), "failed (exit 1)");
 * assert.equal(describeState({ kind: "answer", exitCode: 1, meaning: "no match" }), "no match (exit 1)");
 * ```
 */
export function describeState(state: OutcomeState): string {
  const exit = state.exitCode === undefined ? "" : ` (exit ${state.exitCode})`;
  return WORDINGS[state.kind].words(state, exit);
}

/**
 * Reads the outcome words at the start of `text` (in their current or an older spelling): the
 * state and how many characters they took; `undefined` when `text` does not start with them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readState } from "./outcome_words.ts";
 * assert.deepEqual(readState("failed (exit 2) [#4]"), { state: { kind: "failed", exitCode: 2 }, length: 15 });
 * assert.deepEqual(readState("ERROR exit 1: boom"), { state: { kind: "failed", exitCode: 1 }, length: 12 });
 * ```
 */
export function readState(text: string): { state: OutcomeState; length: number } | undefined {
  for (const kind of KINDS) {
    const wording: Wording = WORDINGS[kind];
    for (const grammar of [wording.read, ...(wording.aliases ?? [])]) {
      const match = grammar.exec(text);
      if (!match) continue;
      const { exit, meaning, printed, of } = match.groups ?? {};
      return {
        state: {
          kind,
          ...(exit === undefined ? {} : { exitCode: Number(exit) }),
          ...(meaning === undefined ? {} : { meaning: meaning as ExitMeaning }),
          ...(printed === undefined ? {} : { printedError: true }),
          ...(of === undefined ? {} : { exitOf: of }),
        },
        length: match[0].length,
      };
    }
  }
  return undefined;
}

/**
 * Every word the vocabulary writes, for the proofs (words of a cited line that are the
 * projector's own, not quoted from the cited message).
 */
export const OUTCOME_WORDS: readonly string[] = KINDS.flatMap((kind) =>
  kind === "answer" || kind === "unfinished"
    ? (kind === "answer" ? EXIT_ANSWERS : EXIT_WAITS).map((meaning) =>
      describeState({ kind, meaning, exitCode: 1 })
    )
    : [
      describeState({ kind, exitCode: 0, printedError: true, exitOf: "tail" }),
      describeState({ kind }),
    ]
);
