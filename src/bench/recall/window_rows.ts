import { jsonObject } from "../../compaction/json_object.ts";

/** One tool call of a window, with the result that answered it when the window holds one. */
export interface WindowCall {
  readonly tool: string;
  /** The call's arguments; `undefined` when they were not a JSON object. */
  readonly args: Readonly<Record<string, unknown>> | undefined;
  /** Reference of the assistant row that made the call: `#N`, or `tN` for the N-th row. */
  readonly callRef: string;
  readonly result?: { readonly ref: string; readonly text: string };
  /** Rows that store this call or its result again (see {@linkcode WindowRows.repeatedCalls}). */
  readonly copies?: readonly string[];
}

/** A user row: its reference, its text, and the rows that store it again. */
export interface UserRow {
  readonly ref: string;
  readonly text: string;
  /**
   * Later user rows with the same text: Hermes's copies after a compaction, and the same words
   * asked again.
   */
  readonly copies?: readonly string[];
}

/** What the bench reads from a window's rows, without interpreting any tool's output. */
export interface WindowRows {
  /** Calls in the order they were made. */
  readonly calls: readonly WindowCall[];
  readonly users: readonly UserRow[];
  /** Tool rows whose call is not in the window (or that carry no call id). */
  readonly orphanResults: number;
  /**
   * Calls that repeat an earlier call's id and timestamp: Hermes stores the first exchange again
   * after a compaction, so such a row is a copy of a call already made, not another run. (A call
   * that reuses an id at another time is a call of its own.)
   */
  readonly repeatedCalls: number;
}

// How Hermes (0.22) begins the user row restating a request after a compaction.
const RESTATED = /^\[STILL IN PROGRESS[^\]\n]*\]\s*/;

/**
 * Reads a window as OpenAI-style messages: assistant `tool_calls` (`{id, function: {name,
 * arguments}}`), tool rows answering a call by `tool_call_id`, user rows. A row's reference is
 * `#` + its `_row_id` (a non-negative integer, or a string of digits), else `t` + its 1-based
 * position in the window. Anything that is not such a message is skipped.
 */
export function readWindowRows(rows: readonly unknown[]): WindowRows {
  const calls: { call: WindowCall; result?: WindowCall["result"]; copies?: string[] }[] = [];
  // The latest call with each id, and when the first one was made.
  const byId = new Map<string, number>();
  const firstMade = new Map<string, unknown>();
  const copied = new Set<string>();
  const users: { ref: string; text: string; copies?: string[] }[] = [];
  let orphanResults = 0;
  let repeatedCalls = 0;
  const copyOf = (id: string) => {
    const slot = calls[byId.get(id) ?? -1];
    if (slot) slot.copies ??= [];
    return slot?.copies;
  };
  rows.forEach((value, index) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return;
    const row = value as Record<string, unknown>;
    const ref = rowRef(row, index);
    if (row.role === "user") {
      const raw = textOf(row.content);
      // Hermes's restatement of an unfinished request after a compaction is that request again:
      // a copy of it where the window holds it, else the only copy the window has.
      const restated = RESTATED.exec(raw);
      const text = restated ? raw.slice(restated[0].length) : raw;
      // The same words again (a copy Hermes stored after a compaction, or asked anew) are the
      // request made first.
      const original = users.find((user) => user.text === text);
      if (original) (original.copies ??= []).push(ref);
      else users.push({ ref, text });
    }
    if (row.role === "assistant" && Array.isArray(row.tool_calls)) {
      for (const entry of row.tool_calls) {
        const call = readCall(entry, ref);
        if (!call) continue;
        if (call.id !== undefined) {
          if (byId.has(call.id) && isCopy(firstMade.get(call.id), row.timestamp)) {
            repeatedCalls++;
            copied.add(call.id);
            copyOf(call.id)?.push(ref);
            continue;
          }
          if (!byId.has(call.id)) firstMade.set(call.id, row.timestamp);
          byId.set(call.id, calls.length);
        }
        calls.push({ call: call.call });
      }
    }
    if (row.role === "tool") {
      const id = typeof row.tool_call_id === "string" ? row.tool_call_id : "";
      const at = byId.get(id);
      const slot = at === undefined ? undefined : calls[at];
      if (slot && !slot.result) slot.result = { ref, text: textOf(row.content) };
      else if (copied.has(id)) copyOf(id)?.push(ref);
      else orphanResults++;
    }
  });
  return {
    calls: calls.map(({ call, result, copies }) => ({
      ...call,
      ...(result ? { result } : {}),
      ...(copies ? { copies } : {}),
    })),
    users,
    orphanResults,
    repeatedCalls,
  };
}

function isCopy(first: unknown, timestamp: unknown): boolean {
  return (typeof timestamp === "number" || typeof timestamp === "string") && timestamp === first;
}

function rowRef(row: Record<string, unknown>, index: number): string {
  const id = row._row_id;
  if (typeof id === "number" && Number.isSafeInteger(id) && id >= 0) return `#${id}`;
  if (typeof id === "string" && /^\d{1,15}$/.test(id)) return `#${Number(id)}`;
  return `t${index + 1}`;
}

function readCall(
  entry: unknown,
  callRef: string,
): { id: string | undefined; call: WindowCall } | undefined {
  if (entry === null || typeof entry !== "object") return undefined;
  const record = entry as Record<string, unknown>;
  const fn = record.function !== null && typeof record.function === "object"
    ? record.function as Record<string, unknown>
    : record;
  if (typeof fn.name !== "string" || fn.name === "") return undefined;
  const raw = fn.arguments;
  const args = typeof raw === "string"
    ? argsObject(raw)
    : raw !== null && typeof raw === "object" && !Array.isArray(raw)
    ? raw as Record<string, unknown>
    : undefined;
  const id = typeof record.id === "string" && record.id !== "" ? record.id : undefined;
  // Hermes's `tool_call` bridge carrying one call stands for that call.
  const carried = fn.name === "tool_call" && Array.isArray(args?.calls) && args.calls.length === 1
    ? args.calls[0] as { name?: unknown; arguments?: unknown } | null
    : undefined;
  if (carried && typeof carried.name === "string" && carried.name !== "") {
    const inner = carried.arguments;
    const innerArgs = typeof inner === "string"
      ? argsObject(inner)
      : inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? inner as Record<string, unknown>
      : undefined;
    return { id, call: { tool: carried.name, args: innerArgs, callRef } };
  }
  return { id, call: { tool: fn.name, args, callRef } };
}

function argsObject(text: string): Record<string, unknown> | undefined {
  const args = jsonObject(text);
  return Object.keys(args).length > 0 || /^\s*\{\s*\}\s*$/.test(text) ? args : undefined;
}

/** A message's text: a string as is, the `text` of each part of a list joined by newlines. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      part !== null && typeof part === "object" &&
        typeof (part as Record<string, unknown>).text === "string"
        ? (part as Record<string, unknown>).text as string
        : ""
    )
    .filter((text) => text !== "")
    .join("\n");
}
