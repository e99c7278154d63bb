import { pruneToolResults } from "../compaction/mod.ts";
import { project, type Projection } from "../core/mod.ts";
import { SAMPLE_SESSION_ID, sampleSession } from "./_sample_session.ts";
import type { ScriptRow } from "./_script.ts";

/** Budget of each demo compaction, in tokens. */
export const DEMO_BUDGET_TOKENS = 3000;
// Rows pinned as head before the first compaction (moved past a call's results, as every cut
// is), and rows kept verbatim as the tail.
const HEAD_ROWS = 3;
const TAIL_ROWS = 20;

/** The two compactions of the sample session, as Hermes would run them. */
export interface DemoRun {
  /** The sample session's id, which both projections cite. */
  readonly sessionId: string;
  readonly messages: number;
  readonly first: { readonly window: readonly ScriptRow[]; readonly projection: Projection };
  readonly second: { readonly window: readonly ScriptRow[]; readonly projection: Projection };
}

/**
 * Compacts the bundled sample session twice: first its early half after the pinned head, then the
 * head (no longer pinned after a compaction) and the rest up to the protected tail, merging the
 * first projection. Old tool results are pruned to
 * Hermes's stubs before each summary step, as Hermes does.
 */
export function demoRun(): DemoRun {
  const rows = sampleSession();
  const head = alignToCall(rows, HEAD_ROWS);
  const middle = alignToCall(rows, Math.floor(rows.length / 2));
  const end = alignToCall(rows, rows.length - TAIL_ROWS);
  const firstWindow = pruneToolResults(rows.slice(head, middle), rows.slice(middle));
  const first = project(firstWindow, {
    sessionId: SAMPLE_SESSION_ID,
    budgetTokens: DEMO_BUDGET_TOKENS,
  });
  // After the first compaction Hermes stops pinning the head, so the next window starts with it.
  const secondWindow = pruneToolResults(
    [...rows.slice(0, head), ...rows.slice(middle, end)],
    rows.slice(end),
  );
  const second = project(secondWindow, {
    sessionId: SAMPLE_SESSION_ID,
    budgetTokens: DEMO_BUDGET_TOKENS,
    previous: first.body,
  });
  return {
    sessionId: SAMPLE_SESSION_ID,
    messages: rows.length,
    first: { window: firstWindow, projection: first },
    second: { window: secondWindow, projection: second },
  };
}

/** Moves a cut forward past tool results so a call is never separated from its result. */
function alignToCall(rows: readonly ScriptRow[], index: number): number {
  let cut = index;
  while (cut < rows.length && rows[cut]?.role === "tool") cut++;
  return cut;
}
