import { hermesRules } from "../compaction/mod.ts";
import type { HermesGeneration } from "../core/mod.ts";

/**
 * What a session's `sessions` row says about its compaction (epoch seconds; 0 when unset). The
 * 0.19 schema has no breaker or overload columns (`null` here).
 */
export interface CompactionState {
  /** The generation whose rules read these columns (see `storeGeneration`). */
  readonly generation: HermesGeneration;
  /** `compression_failure_cooldown_until`: no automatic compaction before then. */
  readonly cooldownUntil: number;
  /** `compression_failure_error`: why the summary step failed. */
  readonly cooldownError: string | null;
  /** `compression_fallback_streak`: fallback summaries in a row. */
  readonly fallbackStreak: number;
  /** `compression_ineffective_count` (0.22): compactions in a row that did not shrink the context. */
  readonly ineffectiveCount: number | null;
  /** `compression_recovery_deadline` (0.22): when the breaker allows one retry; 0 until armed. */
  readonly recoveryDeadline: number;
  /** `compression_overload_streak` (0.22): summary attempts in a row the model refused as overloaded. */
  readonly overloadStreak: number | null;
  /** `_fallback_probe_at` in `model_config` (0.22): when a benched summary step is tried again. */
  readonly summaryProbeAt: number;
}

/** One way Hermes holds a session's compaction back, or is about to. */
export interface CompactionHold {
  /** What is held back; null for a warning that holds nothing back yet. */
  readonly blocks: "automatic compaction" | "the summary step" | null;
  /** Epoch seconds it lasts until; null when it ends on an event rather than at a time. */
  readonly until: number | null;
  /** Whether it holds at the time of the report. */
  readonly active: boolean;
  /** How long it lasts, in words, when there is no `until`. */
  readonly ends?: string;
  /** Why, in words. */
  readonly why: string;
}

// Hermes 0.22's breaker and summary-step bench last this long before one retry.
const RETRY_WINDOW_SECONDS = 300;
// Two in a row trip the breaker or bench the summary step.
const TRIP_COUNT = 2;

/**
 * The holds `state` describes at `now` (epoch seconds), most binding first: a summary-failure
 * cooldown, 0.22's breaker after compactions that did not shrink the context (300 s, then one
 * retry), a run of fallback summaries (0.22: the summary step is benched, probed every 300 s;
 * 0.19: automatic compaction stops), and warnings one step short of those. A cooldown that has
 * ended is reported as such until Hermes clears it.
 */
export function compactionHolds(state: CompactionState, now: number): CompactionHold[] {
  const holds: CompactionHold[] = [];
  if (state.cooldownUntil > 0) {
    holds.push({
      blocks: "automatic compaction",
      until: state.cooldownUntil,
      active: state.cooldownUntil > now,
      why: `the summary step failed${state.cooldownError ? `: ${state.cooldownError}` : ""}`,
    });
  }
  const ineffective = state.ineffectiveCount ?? 0;
  if (ineffective >= TRIP_COUNT) {
    const armed = state.recoveryDeadline > 0;
    holds.push({
      blocks: "automatic compaction",
      until: armed ? state.recoveryDeadline : null,
      active: !armed || state.recoveryDeadline > now,
      ...(armed ? {} : { ends: `for ${RETRY_WINDOW_SECONDS} s from Hermes's next check` }),
      why: `${ineffective} compactions in a row did not shrink the context; Hermes then allows ` +
        `one retry`,
    });
  } else if (ineffective === 1) {
    holds.push({
      blocks: null,
      until: null,
      active: true,
      why: "1 compaction did not shrink the context; one more stops automatic compaction",
    });
  }
  if (state.fallbackStreak >= TRIP_COUNT) {
    const why = `${state.fallbackStreak} fallback summaries in a row`;
    if (hermesRules(state.generation).fallbackHold === "the summary step") {
      const probe = state.summaryProbeAt > 0;
      holds.push({
        blocks: "the summary step",
        until: probe ? state.summaryProbeAt : null,
        active: !probe || state.summaryProbeAt > now,
        ...(probe ? {} : { ends: `for ${RETRY_WINDOW_SECONDS} s from the next compaction` }),
        why: `${why}; compactions insert Hermes's fallback summary until the summary step is ` +
          `tried again`,
      });
    } else {
      holds.push({
        blocks: "automatic compaction",
        until: null,
        active: true,
        ends: "until a compaction gets a real summary, e.g. through /compress",
        why,
      });
    }
  } else if (state.fallbackStreak === 1) {
    holds.push({
      blocks: null,
      until: null,
      active: true,
      why: `1 fallback summary; one more ${
        hermesRules(state.generation).fallbackHold === "the summary step"
          ? "benches the summary step"
          : "stops automatic compaction"
      }`,
    });
  }
  if ((state.overloadStreak ?? 0) > 0) {
    holds.push({
      blocks: null,
      until: null,
      active: true,
      why: `the summary model was overloaded ${state.overloadStreak} time(s) in a row`,
    });
  }
  return holds;
}
