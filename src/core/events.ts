import type { Row, ToolCall } from "./message.ts";
import { type CallKind, MISSING, type Outcome, readOutcome } from "./outcome.ts";

/** Tools whose outcome is an exit status rather than ok/error. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set([
  "terminal",
  "execute_code",
  "process",
  "process_manage",
]);

/** One tool call paired with its result (either side may be missing). */
export interface ToolEvent {
  readonly call: ToolCall;
  /** The assistant row that made the call; absent for a result whose call is not in the window. */
  readonly callRow: Row | undefined;
  /** The tool row holding the result; absent for a call without a result. */
  readonly resultRow: Row | undefined;
  readonly outcome: Outcome;
}

/** The row an event is cited by first: the call when present, else the result. */
export function eventRow(event: ToolEvent): Row {
  return (event.callRow ?? event.resultRow) as Row;
}

/**
 * Pairs every assistant tool call with its tool result by `tool_call_id` (falling back to the
 * oldest open call of the same tool when ids are missing), in the order the calls were made.
 */
export function pairToolEvents(rows: readonly Row[]): ToolEvent[] {
  const slots: { call: ToolCall; callRow: Row | undefined; resultRow: Row | undefined }[] = [];
  const open = new OpenCalls();
  for (const row of rows) {
    if (row.role === "assistant") {
      for (const call of row.toolCalls) {
        open.add(call, slots.push({ call, callRow: row, resultRow: undefined }) - 1);
      }
    } else if (row.role === "tool") {
      const slot = open.claim(row.toolCallId, row.toolName);
      const target = slot === undefined ? undefined : slots[slot];
      if (target) target.resultRow = row;
      else slots.push({ call: orphanCall(row), callRow: undefined, resultRow: row });
    }
  }
  return slots.map(({ call, callRow, resultRow }) => ({
    call,
    callRow,
    resultRow,
    outcome: resultRow ? readOutcome(resultRow.text, callKind(call)) : MISSING,
  }));
}

/** Calls still waiting for their result, found by id or, lacking one, by tool name (oldest first). */
class OpenCalls {
  readonly #byId = new Map<string, number>();
  readonly #byName = new Map<string, { slots: number[]; next: number }>();
  readonly #claimed = new Set<number>();

  add(call: ToolCall, slot: number): void {
    if (call.id !== "" && !this.#byId.has(call.id)) this.#byId.set(call.id, slot);
    const queue = this.#byName.get(call.name);
    if (queue) queue.slots.push(slot);
    else this.#byName.set(call.name, { slots: [slot], next: 0 });
  }

  claim(id: string, name: string): number | undefined {
    const slot = id !== "" ? this.#byId.get(id) : this.#oldestByName(name);
    if (slot === undefined || this.#claimed.has(slot)) return undefined;
    this.#claimed.add(slot);
    this.#byId.delete(id);
    return slot;
  }

  #oldestByName(name: string): number | undefined {
    const queue = this.#byName.get(name);
    if (!queue) return undefined;
    while (
      queue.next < queue.slots.length && this.#claimed.has(queue.slots[queue.next] as number)
    ) {
      queue.next++;
    }
    return queue.slots[queue.next];
  }
}

function callKind(call: ToolCall): CallKind {
  return {
    command: COMMAND_TOOLS.has(call.name),
    background: call.args.background === true,
    kill: call.name.startsWith("process") && call.args.action === "kill",
  };
}

function orphanCall(row: Row): ToolCall {
  return {
    id: row.toolCallId,
    name: row.toolName || "tool",
    args: {},
    argsText: "",
    argsValid: true,
  };
}
