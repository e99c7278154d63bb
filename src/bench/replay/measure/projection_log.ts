/**
 * What Hermes's `agent.log` says about compactions: the projections the vcc plugin logged (one
 * line per compaction, `vcc: projected N turns into M chars in X ms (no LLM call)`), and the
 * compactions Hermes gave up on (`Compression made no progress`, after which it backs off for
 * 300 s and requests grow past its threshold).
 *
 * @module
 */
import { PROJECTION_LINE } from "./session_record.ts";

/** One logged projection. */
export interface LoggedProjection {
  readonly turns: number;
  readonly chars: number;
  readonly ms: number;
}

/** The projections in `log` (the text of an agent.log), in order. */
export function loggedProjections(log: string): LoggedProjection[] {
  return [...log.matchAll(PROJECTION_LINE)].map((match) => ({
    turns: Number(match[1]),
    chars: Number(match[2]),
    ms: Number(match[3]),
  }));
}

const NO_PROGRESS = /Compression made no progress/g;

/** How many compactions in `log` made no progress. */
export function stalledCompactions(log: string): number {
  return [...log.matchAll(NO_PROGRESS)].length;
}
