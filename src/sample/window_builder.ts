import type { SeededRandom } from "./random.ts";
import { pruningStub } from "../compaction/stubs.ts";
import { CLEARED_PLACEHOLDER, DUPLICATE_PLACEHOLDER } from "../core/mod.ts";

/** A generated message row, in the shape Hermes hands to its summary step. */
export type WindowRow = Record<string, unknown>;

/** A tool call as an assistant row carries it. */
export interface ToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A tool call to make: the tool, its arguments, and optionally raw `arguments` text to use. */
export interface CallSpec {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** Replaces the JSON of `args` verbatim (used for invalid JSON arguments). */
  readonly rawArguments?: string;
}

/**
 * Appends rows to a window while keeping count of its JSON size, numbering `_row_id`s, stamping
 * times, and pruning old tool results the way Hermes does (early rows more often than late ones).
 */
export class WindowBuilder {
  readonly rows: WindowRow[] = [];
  #chars = 2;
  #nextRowId: number;
  #time: number;
  readonly #usedCallIds = new Set<string>();

  constructor(
    readonly random: SeededRandom,
    readonly targetChars: number,
    rowIdStart: number,
    startTime: number,
  ) {
    this.#nextRowId = rowIdStart;
    this.#time = startTime;
  }

  /** JSON characters of the window so far (`JSON.stringify(rows).length`). */
  get chars(): number {
    return this.#chars;
  }

  /** Characters left before the target size. */
  get remaining(): number {
    return this.targetChars - this.#chars;
  }

  /** Share of the target already written, 0 to 1. */
  get progress(): number {
    return Math.min(1, this.#chars / this.targetChars);
  }

  /** A point to roll back to with {@linkcode restore}. */
  mark(): { rows: number; chars: number; rowId: number; time: number } {
    return {
      rows: this.rows.length,
      chars: this.#chars,
      rowId: this.#nextRowId,
      time: this.#time,
    };
  }

  /** Drops every row written after `point`. */
  restore(point: ReturnType<WindowBuilder["mark"]>): void {
    this.rows.length = point.rows;
    this.#chars = point.chars;
    this.#nextRowId = point.rowId;
    this.#time = point.time;
  }

  /** Appends a user row; `content` may be a string or a list of parts. */
  user(content: unknown): void {
    this.#push({ role: "user", content });
  }

  /** Appends an assistant row with text and optional tool calls; returns the calls made. */
  assistant(text: string, calls: readonly CallSpec[] = []): ToolCall[] {
    const toolCalls = calls.map((spec): ToolCall => ({
      id: this.#callId(),
      type: "function",
      function: { name: spec.tool, arguments: spec.rawArguments ?? JSON.stringify(spec.args) },
    }));
    const row: WindowRow = { role: "assistant", content: text };
    if (toolCalls.length > 0) row.tool_calls = toolCalls;
    row.finish_reason = toolCalls.length > 0 ? "tool_calls" : "stop";
    if (this.random.chance(0.08)) row.reasoning = "Checking the output before the next step.";
    this.#push(row);
    return toolCalls;
  }

  /**
   * Appends the result of `call`. String results outside the end of the window may be replaced
   * by Hermes's pruning stub, a cleared placeholder, or a duplicate marker.
   */
  result(call: ToolCall, spec: CallSpec, content: unknown): void {
    const stored = typeof content === "string" ? this.#maybePrune(spec, content) : content;
    this.#push({
      role: "tool",
      tool_call_id: call.id,
      tool_name: spec.tool,
      content: stored,
    });
  }

  /** Appends a tool row answering a call id that no assistant row made. */
  orphanResult(tool: string, content: string): void {
    this.#push({ role: "tool", tool_call_id: this.#callId(), tool_name: tool, content });
  }

  /** A call and its result in two rows, with an assistant remark. */
  call(text: string, spec: CallSpec, content: unknown): void {
    const [call] = this.assistant(text, [spec]);
    if (call) this.result(call, spec, content);
  }

  #maybePrune(spec: CallSpec, content: string): string {
    if (content.length <= 200 || !this.random.chance(0.5 * (1 - this.progress))) return content;
    const roll = this.random.next();
    if (roll < 0.1) return DUPLICATE_PLACEHOLDER;
    if (roll < 0.25) return CLEARED_PLACEHOLDER;
    return pruningStub(spec.tool, spec.args, content);
  }

  #callId(): string {
    let id = `call_${this.random.hex(12)}`;
    while (this.#usedCallIds.has(id)) id = `call_${this.random.hex(12)}`;
    this.#usedCallIds.add(id);
    return id;
  }

  #push(fields: WindowRow): void {
    this.#time += this.random.range(1, 45) + this.random.int(1000) / 1000;
    const row: WindowRow = {
      ...fields,
      timestamp: Math.round(this.#time * 1000) / 1000,
      _row_id: this.#nextRowId++,
    };
    this.rows.push(row);
    this.#chars += JSON.stringify(row).length + (this.rows.length > 1 ? 1 : 0);
  }
}
