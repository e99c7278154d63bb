/**
 * What a call's history of outcomes decides, written once over a list of stated outcomes: where
 * it stands (its last decisive outcome), whether a failure was fixed, and whether the agent is
 * stuck on it. Errors & Fixes and Blocked apply these rules to the calls of one window, and the
 * merge step applies them again to the histories Commands Run carries across compactions.
 *
 * @module
 */
import {
  isBlocked,
  isCleanSuccess,
  isDecisive,
  isFailure,
  isSuccess,
  isTrouble,
  type OutcomeState,
} from "./outcome_words.ts";
import type { Ref } from "./ref.ts";

/** One stated outcome of a call, and the row that shows it. */
export interface Attempt {
  readonly state: OutcomeState;
  readonly ref?: Ref;
}

/** The last attempt that decides where the call stands (a success, failure or refusal). */
export function lastDecisive<A extends Attempt>(attempts: readonly A[]): A | undefined {
  return attempts.findLast((attempt) => isDecisive(attempt.state));
}

/**
 * Where the call was fixed after its trouble at index `from`: its first clean success after its
 * last trouble (from `from` on); `undefined` when none followed, or trouble came again after it.
 */
export function fixAfter<A extends Attempt>(attempts: readonly A[], from: number): A | undefined {
  let fix: A | undefined;
  for (const attempt of attempts.slice(from + 1)) {
    if (isTrouble(attempt.state)) fix = undefined;
    else if (fix === undefined && isCleanSuccess(attempt.state)) fix = attempt;
  }
  return fix;
}

/**
 * A background job's attempts up to its end: the reports after the first that says it ended (it
 * succeeded, failed or was killed) repeat that end or tell nothing of it (a wait and then a poll
 * that both say it exited 3, or a read of its log after it exited, tell of one run). An end told
 * without its exit code is told by the later report of the same end that gives it (a kill's answer,
 * then the poll that says it exited -15).
 */
export function untilJobEnd<A extends Attempt>(attempts: readonly A[]): A[] {
  const end = jobEnd(attempts.map((attempt) => attempt.state));
  return end === undefined
    ? [...attempts]
    : [...attempts.slice(0, end.at), attempts[end.toldBy] as A];
}

/**
 * Where a background job's history of reports ends (`undefined` when none says it ended): at the
 * first report of its end (`at`), told by that report or, when it gives no exit code, by the
 * first later one of the same end that does (`toldBy`).
 */
export function jobEnd(
  states: readonly (OutcomeState | undefined)[],
): { readonly at: number; readonly toldBy: number } | undefined {
  const at = states.findIndex((state) => state !== undefined && endsJob(state));
  const ended = states[at];
  if (ended === undefined) return undefined;
  if (ended.exitCode !== undefined) return { at, toldBy: at };
  const told = states.findIndex((state, index) =>
    index > at && state?.kind === ended.kind && state.exitCode !== undefined
  );
  return { at, toldBy: told === -1 ? at : told };
}

/** Whether a background job's report says it ended (a refusal of a call on it does not). */
function endsJob(state: OutcomeState): boolean {
  return isSuccess(state) || isFailure(state) || state.kind === "killed";
}

/** Whether the call got past its trouble: its last decisive attempt is a success. */
export function gotPast(attempts: readonly Attempt[]): boolean {
  const last = lastDecisive(attempts);
  return last !== undefined && isSuccess(last.state);
}

/**
 * Whether the agent is stuck on a call, given its attempts, those of every call at the same piece
 * of work (its `family`, as `commandFamily` names it, the call's own attempts among them), in order, and whether anything at all succeeded cleanly after the call's last
 * attempt. Not when the call or its work got past its trouble; else when its last decisive
 * attempt was refused, or when it failed last of its family and the agent either retried the work
 * and failed again or did nothing that worked afterwards. A failure the agent moved on from is not
 * being stuck.
 */
export function isStuck(
  own: readonly Attempt[],
  family: readonly Attempt[],
  laterSuccess: boolean,
): boolean {
  const last = lastDecisive(own);
  if (last === undefined || gotPast(own) || gotPast(family)) return false;
  if (isBlocked(last.state)) return true;
  const decisive = family.filter((attempt) => isDecisive(attempt.state));
  if (decisive.at(-1) !== last) return false;
  const retried = decisive.length > 1 && isFailure((decisive.at(-2) as Attempt).state);
  return retried || !laterSuccess;
}
