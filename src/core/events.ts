import { COMMAND_TOOLS, PROCESS_TOOLS, TERMINAL_TOOL } from "./hermes.ts";
import type { Row, ToolCall } from "./message.ts";
import { type CallKind, MISSING, type Outcome, readOutcome } from "./outcome.ts";
import { sameRow } from "./ref.ts";

/** One tool call paired with its result (either side may be missing). */
export interface ToolEvent {
  readonly call: ToolCall;
  /** The assistant row that made the call; absent for a result whose call is not in the window. */
  readonly callRow: Row | undefined;
  /** The tool row holding the result; absent for a call without a result. */
  readonly resultRow: Row | undefined;
  readonly outcome: Outcome;
}

/** The tool events of a window, and the rows that only repeat an earlier row of it. */
export interface PairedEvents {
  /** In the order the calls were made: by recorded time when every event has one. */
  readonly events: readonly ToolEvent[];
  /**
   * Rows that copy an earlier row of the window (Hermes stores its protected head again after a
   * compaction: same call ids, same timestamps, new row ids); they add no event and no log line.
   */
  readonly copies: ReadonlySet<Row>;
}

/** The row an event is cited by first: the call when present, else the result. */
export function eventRow(event: ToolEvent): Row {
  return (event.callRow ?? event.resultRow) as Row;
}

interface Slot {
  readonly call: ToolCall;
  readonly callRow: Row | undefined;
  resultRow: Row | undefined;
}

/**
 * Pairs every assistant tool call with its tool result by `tool_call_id` (falling back to the
 * oldest open call of the same tool when ids are missing). A call or result whose id was already
 * seen is a copy of that event: the copy that still holds the full output is kept, the other is
 * recorded in `copies`. A user message repeated with its text and time is a copy too.
 */
export function pairToolEvents(rows: readonly Row[]): PairedEvents {
  const slots: Slot[] = [];
  const byId = new Map<string, Slot>();
  const openByName = new Map<string, Slot[]>();
  const copies = new Set<Row>();
  const usersAt = new Map<number, string[]>();
  for (const row of rows) {
    if (row.role === "assistant") {
      let repeated = 0;
      for (const call of row.toolCalls) {
        if (call.id !== "" && byId.has(call.id)) {
          repeated++;
          continue;
        }
        const slot: Slot = { call, callRow: row, resultRow: undefined };
        slots.push(slot);
        if (call.id !== "") byId.set(call.id, slot);
        pushOpen(openByName, call.name, slot);
      }
      if (repeated > 0 && repeated === row.toolCalls.length) copies.add(row);
    } else if (row.role === "tool") {
      const slot = row.toolCallId !== ""
        ? byId.get(row.toolCallId)
        : takeOpen(openByName, row.toolName);
      if (slot === undefined) {
        const orphan: Slot = { call: orphanCall(row), callRow: undefined, resultRow: row };
        slots.push(orphan);
        if (row.toolCallId !== "") byId.set(row.toolCallId, orphan);
      } else if (slot.resultRow === undefined) {
        slot.resultRow = row;
      } else {
        const kept = fuller(slot.resultRow, row);
        copies.add(kept === row ? slot.resultRow : row);
        slot.resultRow = kept;
      }
    } else if (row.role === "user" && row.time !== undefined) {
      const texts = usersAt.get(row.time);
      if (texts?.includes(row.text)) copies.add(row);
      else if (texts) texts.push(row.text);
      else usersAt.set(row.time, [row.text]);
    }
  }
  const events = slots.map(({ call, callRow, resultRow }) => ({
    call,
    callRow,
    resultRow,
    outcome: resultRow
      ? readOutcome(resultRow.text, callKind(call), resultRow.savedOutput)
      : MISSING,
  }));
  return { events: inTimeOrder(events), copies };
}

/** Of two rows holding one result, the one to keep: the full output over a stub, else the first. */
function fuller(first: Row, second: Row): Row {
  if (sameRow(first.ref, second.ref)) return first;
  const stubbed = (row: Row) => row.text.startsWith("[") && row.text.length < 2000;
  return stubbed(first) && !stubbed(second) ? second : first;
}

function pushOpen(open: Map<string, Slot[]>, name: string, slot: Slot): void {
  const queue = open.get(name);
  if (queue) queue.push(slot);
  else open.set(name, [slot]);
}

function takeOpen(open: Map<string, Slot[]>, name: string): Slot | undefined {
  const queue = open.get(name);
  while (queue && queue.length > 0 && queue[0]?.resultRow !== undefined) queue.shift();
  return queue?.shift();
}

/** Events sorted by when their call was recorded, when every event carries a time; else as given. */
function inTimeOrder(events: ToolEvent[]): ToolEvent[] {
  const times = events.map((event) => event.callRow?.time ?? event.resultRow?.time);
  if (times.some((time) => time === undefined)) return events;
  return events
    .map((event, index) => ({ event, index, time: times[index] as number }))
    .sort((a, b) => a.time - b.time || a.index - b.index)
    .map(({ event }) => event);
}

function callKind(call: ToolCall): CallKind {
  const command = typeof call.args.command === "string" ? call.args.command : undefined;
  return {
    command: COMMAND_TOOLS.has(call.name),
    background: call.args.background === true,
    process: PROCESS_TOOLS.has(call.name),
    ...(call.name === TERMINAL_TOOL && command !== undefined ? { commandLine: command } : {}),
  };
}

function orphanCall(row: Row): ToolCall {
  return {
    id: row.toolCallId,
    name: row.toolName || "tool",
    label: row.toolLabel,
    args: {},
    argsText: "",
    argsValid: true,
  };
}
