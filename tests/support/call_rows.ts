/**
 * The rows of one tool call as Hermes stores them, for tests that build windows by hand.
 *
 * @module
 */

/** A window row: an OpenAI-style message with Hermes's `_row_id`. */
export type Row = Record<string, unknown>;

/**
 * The assistant row that calls `tool` with `args` (row `id`) and the tool row with its `result`
 * as JSON (row `id + 1`).
 */
export function callRows(id: number, tool: string, args: unknown, result: unknown): Row[] {
  const callId = `c${id}`;
  return [
    {
      role: "assistant",
      _row_id: id,
      content: "",
      tool_calls: [{
        id: callId,
        type: "function",
        function: { name: tool, arguments: JSON.stringify(args) },
      }],
    },
    {
      role: "tool",
      _row_id: id + 1,
      tool_call_id: callId,
      tool_name: tool,
      content: JSON.stringify(result),
    },
  ];
}
