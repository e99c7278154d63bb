import { type CallGroup, groupCalls } from "./calls.ts";
import { eventRow, pairToolEvents, type ToolEvent } from "./events.ts";
import { normalizeWindow, type Row, type ToolCall, type Window } from "./message.ts";

/** Everything the sections are built from, computed once per projection. */
export interface Analysis {
  readonly window: Window;
  readonly events: readonly ToolEvent[];
  readonly groups: readonly CallGroup[];
  /** The group each call belongs to. */
  readonly groupOf: ReadonlyMap<ToolCall, CallGroup>;
}

/** Normalises the window, pairs calls with results and groups identical calls. */
export function analyze(input: unknown): Analysis {
  const window = normalizeWindow(input);
  const events = pairToolEvents(window.rows);
  const groups = groupCalls(events);
  const groupOf = new Map<ToolCall, CallGroup>();
  for (const group of groups) for (const event of group.events) groupOf.set(event.call, group);
  return { window, events, groups, groupOf };
}

/** `[#N]` or `[tN]` for a row. */
export function refOf(row: Row): string {
  return `[${row.ref}]`;
}

/** The reference of an event's call, followed by its result's when that is another row. */
export function eventRefs(event: ToolEvent): { call: string; result: string } {
  const call = refOf(eventRow(event));
  const result = event.resultRow && event.resultRow !== event.callRow ? refOf(event.resultRow) : "";
  return { call, result: result === call ? "" : result };
}
