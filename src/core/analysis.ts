import { type CallGroup, groupCalls } from "./calls.ts";
import { eventRow, pairToolEvents, type ToolEvent } from "./events.ts";
import { normalizeWindow, type Row, type ToolCall, type Window } from "./message.ts";
import { type Moment, momentOf } from "./moment.ts";
import { type Attempt, untilJobEnd } from "./history.ts";
import type { Ref } from "./ref.ts";

/** Everything the sections are built from, computed once per projection. */
export interface Analysis {
  readonly window: Window;
  /** Tool events in the order the calls were made. */
  readonly events: readonly ToolEvent[];
  /** Rows that only copy an earlier row of the window (see {@linkcode pairToolEvents}). */
  readonly copies: ReadonlySet<Row>;
  readonly groups: readonly CallGroup[];
  /** The group each call belongs to. */
  readonly groupOf: ReadonlyMap<ToolCall, CallGroup>;
  /** The event of each call. */
  readonly eventOf: ReadonlyMap<ToolCall, ToolEvent>;
  /**
   * A background job's reports after the one that tells its end (see {@linkcode untilJobEnd}): a
   * poll repeating the exit, a read of its log after it ended. They tell of no run of their own,
   * and state nothing their job's end did not.
   */
  readonly afterJobEnd: ReadonlySet<ToolEvent>;
}

/** Normalises the window, pairs calls with results and groups identical calls. */
export function analyze(input: unknown): Analysis {
  const window = normalizeWindow(input);
  const { events, copies } = pairToolEvents(window.rows);
  const groups = groupCalls(events);
  const groupOf = new Map<ToolCall, CallGroup>();
  for (const group of groups) for (const event of group.events) groupOf.set(event.call, group);
  const eventOf = new Map(events.map((event) => [event.call, event]));
  return { window, events, copies, groups, groupOf, eventOf, afterJobEnd: afterJobEnd(groups) };
}

function afterJobEnd(groups: readonly CallGroup[]): Set<ToolEvent> {
  const after = new Set<ToolEvent>();
  for (const group of groups) {
    if (group.job === undefined) continue;
    const told = untilJobEnd(group.events.map((event) => ({ state: event.outcome, event })));
    if (told.length === group.events.length) continue;
    const kept = new Set(told.map((attempt) => attempt.event));
    for (const event of group.events) if (!kept.has(event)) after.add(event);
  }
  return after;
}

/** The references of an event: its call's row, and its result's row when that is another row. */
export function eventRefs(event: ToolEvent): { readonly call: Ref; readonly result?: Ref } {
  const call = eventRow(event);
  const result = event.resultRow && event.resultRow !== call ? event.resultRow : undefined;
  return result ? { call: call.ref, result: result.ref } : { call: call.ref };
}

/** The row that shows an event's outcome: its result's, else its call's. */
export function outcomeRef(event: ToolEvent): Ref {
  return (event.resultRow ?? eventRow(event)).ref;
}

/** An event as an attempt of its call: its outcome, at the row that shows it. */
export function attemptOf(event: ToolEvent): Attempt {
  return { state: event.outcome, ref: outcomeRef(event) };
}

/** When an event happened: when its call was recorded, else its result. */
export function eventMoment(event: ToolEvent): Moment {
  return momentOf(event.callRow ?? event.resultRow);
}
