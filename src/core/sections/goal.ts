import { type Analysis, refOf } from "../analysis.ts";
import { excerpt } from "../excerpt.ts";
import { isUserRequest } from "../requests.ts";

/** Longest quote of the latest request in the snapshot. */
const SNAPSHOT_CHARS = 1400;
/** Longest quote of each request in the Goal section. */
const GOAL_CHARS = 600;

/** The snapshot line: the latest real user request, quoted. Absent when the window has none. */
export function snapshotLine(analysis: Analysis): string | undefined {
  const rows = analysis.window.rows;
  for (let index = rows.length - 1; index >= 0; index--) {
    const row = rows[index];
    if (row && isUserRequest(row)) return `${refOf(row)} ${excerpt(row.text, SNAPSHOT_CHARS)}`;
  }
  return undefined;
}

/** One Goal line per real user request, oldest first. */
export function goalLines(analysis: Analysis): string[] {
  return analysis.window.rows
    .filter(isUserRequest)
    .map((row) => `${refOf(row)} ${excerpt(row.text, GOAL_CHARS)}`);
}
