/**
 * The line shape Blocked and Errors & Fixes share — ``- [#call] tool `subject` — state [#result]``
 * followed by the result's own words and a section's suffix — and how it is read back.
 *
 * @module
 */
import { eventRefs } from "../analysis.ts";
import type { CallGroup } from "../calls.ts";
import { excerpt } from "../excerpt.ts";
import type { ToolEvent } from "../events.ts";
import { describeState, type OutcomeState, readState, stateOf } from "../outcome_words.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, renderRef } from "../ref.ts";
import { resultExcerpt } from "../result_excerpt.ts";
import type { RootView } from "../root.ts";
import {
  type CallName,
  callName,
  callNamePattern,
  readCallName,
  renderCallName,
} from "./call_label.ts";

/** The most of a result's words an entry keeps; lines show fewer at small budgets. */
const WORDS_CHARS = 220;

/** One call's outcome as Blocked and Errors & Fixes state it. */
export interface CallOutcome {
  readonly callRef?: Ref;
  readonly name: CallName;
  readonly state: OutcomeState;
  readonly resultRef?: Ref;
  /** The result's own words (sanitised), or "". */
  readonly words: string;
}

/**
 * The outcome of `event`, one of `group`'s calls, with the words of its result unless `quoted` is
 * false (for a line that quotes none, or an entry only merged into another).
 */
export function callOutcome(group: CallGroup, event: ToolEvent, quoted = true): CallOutcome {
  const refs = eventRefs(event);
  // A job's runs are its process calls' results; the line names the call that started it.
  const callRef = group.job === undefined
    ? refs.call
    : eventRefs(group.events[0] as ToolEvent).call;
  return {
    callRef,
    name: callName(group, true),
    state: stateOf(event.outcome),
    ...(refs.result ? { resultRef: refs.result } : {}),
    words: quoted ? resultExcerpt(event.outcome, group.command, WORDS_CHARS) : "",
  };
}

/** `- [#call] tool \`subject\` — state [#result]`, without words or suffix. */
export function renderCallOutcome(entry: CallOutcome, width: number, view: RootView): string {
  const call = entry.callRef ? `${renderRef(entry.callRef)} ` : "";
  const result = entry.resultRef ? ` ${renderRef(entry.resultRef)}` : "";
  return `- ${call}${renderCallName(entry.name, width, view)} — ${
    describeState(entry.state)
  }${result}`;
}

/** `: words`, the words cut to `width` characters; empty when there are none. */
export function renderWords(words: string, width: number): string {
  const shown = excerpt(words, width);
  return shown === "" ? "" : `: ${shown}`;
}

const HEAD = new RegExp(`^- (?:(${REF_PATTERN}) )?${callNamePattern(true)} — `);
const RESULT_REF = new RegExp(`^ (${REF_PATTERN})`);

/** Reads the start of a {@linkcode renderCallOutcome} line: the outcome and the rest of the line. */
export function parseCallOutcome(
  line: string,
  view: RootView,
): { entry: CallOutcome; rest: string } | undefined {
  const head = HEAD.exec(line);
  if (!head) return undefined;
  const afterHead = line.slice(head[0].length);
  const read = readState(afterHead);
  if (!read) return undefined;
  let rest = afterHead.slice(read.length);
  const result = RESULT_REF.exec(rest);
  if (result) rest = rest.slice(result[0].length);
  const callRef = head[1] === undefined ? undefined : parsePreviousRef(head[1]);
  const resultRef = result ? parsePreviousRef(result[1] as string) : undefined;
  return {
    entry: {
      ...(callRef ? { callRef } : {}),
      name: readCallName(head, 2, view),
      state: read.state,
      ...(resultRef ? { resultRef } : {}),
      words: "",
    },
    rest,
  };
}
