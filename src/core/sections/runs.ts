/**
 * The outcome history of one command as Commands Run states it — `failed (exit 1) [#4], then
 * succeeded (exit 0) ×2 [#9], last [#15]` — and how histories of two layers are joined.
 *
 * @module
 */
import { describeState, type OutcomeState, readState } from "../outcome_words.ts";
import { jobEnd } from "../history.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, renderRef, sameRow } from "../ref.ts";

/**
 * A run of identical outcomes (`count` of them, the first at `ref`, the last at `last` when that
 * is another row: where the command stood last, beside other commands' runs), or a gap of left-out
 * runs.
 */
export type Run =
  | {
    readonly state: OutcomeState;
    readonly ref?: Ref;
    readonly last?: Ref;
    readonly count: number;
  }
  | { readonly skipped: number };

// A long history shows its first outcome and its latest ones.
const HEAD_RUNS = 1;
const TAIL_RUNS = 4;
const SEPARATOR = ", then ";
const SKIPPED_WORD = "more";
const LAST_WORD = ", last ";
/**
 * The words a history writes itself: its separator, the word before a run's last row and the note
 * on runs left out.
 */
export const RUN_WORDS = `${SEPARATOR} ${LAST_WORD} ${SKIPPED_WORD}`;

/** Appends `state` at `ref` to a history, counting it into the last run when that has its state. */
export function addRun(runs: Run[], state: OutcomeState, ref: Ref | undefined): void {
  pushRun(runs, { state, ...(ref ? { ref } : {}), count: 1 });
}

function pushRun(runs: Run[], run: Run): void {
  const last = runs.at(-1);
  if (
    "state" in run && last !== undefined && "state" in last &&
    describeState(last.state) === describeState(run.state)
  ) {
    const latest = run.last ?? run.ref ?? last.last;
    runs[runs.length - 1] = {
      state: last.state,
      ...(last.ref ? { ref: last.ref } : {}),
      ...(latest && !(last.ref && sameRow(latest, last.ref)) ? { last: latest } : {}),
      count: last.count + run.count,
    };
  } else {
    runs.push(run);
  }
}

/**
 * Joins an earlier layer's history with a later one's: runs the earlier layer already cites are
 * not repeated, and a later history that happened before the earlier layer began goes first. A
 * background job's history (`job`) ends with the first run that says the job ended, once: what
 * either layer read of it afterwards is no run of it.
 */
export function joinRuns(
  earlier: readonly Run[],
  later: readonly Run[],
  older: boolean,
  job = false,
): Run[] {
  const cited = earlier.flatMap((run) =>
    "state" in run ? [run.ref, run.last].filter((ref) => ref !== undefined) : []
  );
  const fresh = later.filter((run) =>
    !("ref" in run) || run.ref === undefined || !cited.some((ref) => sameRow(ref, run.ref!))
  );
  const joined: Run[] = [];
  for (const run of older ? [...fresh, ...earlier] : [...earlier, ...fresh]) pushRun(joined, run);
  return compactRuns(job ? untilEnded(joined) : joined);
}

/** A job's history up to its end (see `jobEnd`), the run that tells it counted once. */
function untilEnded(runs: readonly Run[]): Run[] {
  const end = jobEnd(runs.map((run) => ("state" in run ? run.state : undefined)));
  const told = end && runs[end.toldBy];
  return end === undefined || told === undefined || !("state" in told)
    ? [...runs]
    : [...runs.slice(0, end.at), {
      state: told.state,
      ...(told.ref ? { ref: told.ref } : {}),
      count: 1,
    }];
}

/** A history with at most its first and last runs, the ones between counted as left out. */
export function compactRuns(runs: readonly Run[]): Run[] {
  if (runs.length <= HEAD_RUNS + TAIL_RUNS + 1) return [...runs];
  const middle = runs.slice(HEAD_RUNS, -TAIL_RUNS);
  const skipped = middle.reduce((sum, run) => sum + ("skipped" in run ? run.skipped : 1), 0);
  return [...runs.slice(0, HEAD_RUNS), { skipped }, ...runs.slice(-TAIL_RUNS)];
}

/**
 * The words of a history, e.g. `failed (exit 1) [#4], then succeeded (exit 0) ×2 [#9], last
 * [#15]`.
 */
export function renderRuns(runs: readonly Run[]): string {
  return runs.map((run) => {
    if ("skipped" in run) return `… ${run.skipped} ${SKIPPED_WORD}`;
    const count = run.count > 1 ? ` ×${run.count}` : "";
    const last = run.last ? `${LAST_WORD}${renderRef(run.last)}` : "";
    return `${describeState(run.state)}${count}${run.ref ? ` ${renderRef(run.ref)}` : ""}${last}`;
  }).join(SEPARATOR);
}

const RUN_TAIL = new RegExp(
  `^(?: ×(\\d{1,9}))?(?: (${REF_PATTERN}))?(?:${LAST_WORD}(${REF_PATTERN}))?$`,
);
const SKIPPED = /^… (\d{1,9}) more$/;

/** Reads a history rendered by {@linkcode renderRuns}; `undefined` when `text` is not one. */
export function parseRuns(text: string): Run[] | undefined {
  const runs: Run[] = [];
  for (const part of text.split(SEPARATOR)) {
    const skipped = SKIPPED.exec(part);
    if (skipped) {
      runs.push({ skipped: Number(skipped[1]) });
      continue;
    }
    const read = readState(part);
    const tail = read ? RUN_TAIL.exec(part.slice(read.length)) : null;
    if (!read || !tail) return undefined;
    const ref = tail[2] === undefined ? undefined : parsePreviousRef(tail[2]);
    const last = tail[3] === undefined ? undefined : parsePreviousRef(tail[3]);
    runs.push({
      state: read.state,
      ...(ref ? { ref } : {}),
      ...(last ? { last } : {}),
      count: Number(tail[1] ?? 1),
    });
  }
  return runs.length > 0 ? runs : undefined;
}

/** The last stated outcome of a history. */
export function lastState(runs: readonly Run[]): OutcomeState | undefined {
  for (let index = runs.length - 1; index >= 0; index--) {
    const run = runs[index] as Run;
    if ("state" in run) return run.state;
  }
  return undefined;
}
