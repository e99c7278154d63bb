/**
 * The projection's words for an outcome, and the same words read back from a line of a previous
 * projection: this module is the one place the vocabulary of outcomes is written.
 *
 * @module
 */
import type { ExitMeaning } from "./exit_meaning.ts";
import type { Outcome, OutcomeKind, OutcomeState } from "./outcome.ts";

/** An outcome as a line states it. */
export interface StatedOutcome extends OutcomeState {
  /** A command that exited 0 but printed an error line. */
  readonly printedError?: boolean;
}

const EXIT = String.raw`(?: \(exit (-?\d{1,10})\))?`;
const MEANINGS: readonly ExitMeaning[] = ["no match", "differences found", "false"];

// Each kind with the grammar of its words; group 1 is the exit status where a kind has one.
const WORDS: ReadonlyArray<readonly [OutcomeKind, RegExp]> = [
  ["succeeded", new RegExp(`^succeeded${EXIT}( but printed an error)?`)],
  ["failed", /^failed \((?:exit (-?\d{1,10})|error)\)/],
  ["answer", new RegExp(`^(${MEANINGS.join("|")}) \\(exit (-?\\d{1,10})\\)`)],
  ["no-exit", /^ran \(no exit code\)/],
  ["ok", /^ok\b/],
  ["error", /^error\b/],
  ["blocked", new RegExp(`^blocked${EXIT}`)],
  ["pending", /^pending approval/],
  ["timeout", new RegExp(`^timed out${EXIT}`)],
  ["interrupted", new RegExp(`^interrupted${EXIT}`)],
  ["background", /^started in background/],
  ["running", /^still running/],
  ["unknown", /^output cleared/],
  ["missing", /^no result/],
];

/** What a line states about an outcome. */
export function statedOutcome(outcome: Outcome): StatedOutcome {
  return {
    kind: outcome.kind,
    ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
    ...(outcome.meaning === undefined ? {} : { meaning: outcome.meaning }),
    ...(outcome.reportedError === undefined ? {} : { printedError: true }),
  };
}

/**
 * The words for an outcome: `succeeded (exit 0)`, `failed (exit 1)`, `no match (exit 1)`,
 * `ran (no exit code)`, `blocked`, `pending approval`, `timed out`, …
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeState } from "./outcome_words.ts";
 * assert.equal(describeState({ kind: "failed", exitCode: 1 }), "failed (exit 1)");
 * assert.equal(describeState({ kind: "answer", exitCode: 1, meaning: "no match" }), "no match (exit 1)");
 * ```
 */
export function describeState(state: StatedOutcome): string {
  const exit = state.exitCode === undefined ? "" : ` (exit ${state.exitCode})`;
  switch (state.kind) {
    case "succeeded":
      return `succeeded${exit}${state.printedError ? " but printed an error" : ""}`;
    case "failed":
      return exit === "" ? "failed (error)" : `failed${exit}`;
    case "answer":
      return `${state.meaning ?? "false"}${exit}`;
    case "no-exit":
      return "ran (no exit code)";
    case "ok":
      return "ok";
    case "error":
      return "error";
    case "blocked":
      return `blocked${exit}`;
    case "pending":
      return "pending approval";
    case "timeout":
      return `timed out${exit}`;
    case "interrupted":
      return `interrupted${exit}`;
    case "background":
      return "started in background";
    case "running":
      return "still running";
    case "unknown":
      return "output cleared";
    case "missing":
      return "no result";
  }
}

/** {@linkcode describeState} of an outcome. */
export function describeOutcome(outcome: Outcome): string {
  return describeState(statedOutcome(outcome));
}

/**
 * Reads the outcome words at the start of `text`: the state and how many characters they took;
 * `undefined` when `text` does not start with them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readState } from "./outcome_words.ts";
 * assert.deepEqual(readState("failed (exit 2) [#4]"), { state: { kind: "failed", exitCode: 2 }, length: 15 });
 * ```
 */
export function readState(text: string): { state: StatedOutcome; length: number } | undefined {
  for (const [kind, pattern] of WORDS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const length = match[0].length;
    if (kind === "answer") {
      return {
        state: { kind, exitCode: Number(match[2]), meaning: match[1] as ExitMeaning },
        length,
      };
    }
    const exit = match[1] === undefined ? {} : { exitCode: Number(match[1]) };
    const printed = kind === "succeeded" && match[2] !== undefined ? { printedError: true } : {};
    return { state: { kind, ...exit, ...printed }, length };
  }
  return undefined;
}
