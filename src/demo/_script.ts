/**
 * A small writer for scripted sessions: rows in Hermes's message shape with consecutive
 * `_row_id`s and deterministic call ids, so the bundled demo reads like a real session.
 *
 * @module
 */

/** A message row as Hermes stores it. */
export type ScriptRow = Record<string, unknown>;

/** Appends user, assistant and tool rows to one session. */
export class SessionScript {
  readonly rows: ScriptRow[] = [];
  #rowId: number;
  #calls = 0;

  constructor(firstRowId: number) {
    this.#rowId = firstRowId;
  }

  /** A user message. */
  user(text: string): void {
    this.#push({ role: "user", content: text });
  }

  /** An assistant message without tool calls. */
  say(text: string): void {
    this.#push({ role: "assistant", content: text });
  }

  /** An assistant tool call and the tool's result (or no result row when `result` is undefined). */
  call(
    text: string,
    tool: string,
    args: Record<string, unknown>,
    result: string | undefined,
  ): void {
    const id = `call_${(++this.#calls).toString(16).padStart(12, "0")}`;
    this.#push({
      role: "assistant",
      content: text,
      tool_calls: [{
        id,
        type: "function",
        function: { name: tool, arguments: JSON.stringify(args) },
      }],
    });
    if (result !== undefined) {
      this.#push({ role: "tool", tool_call_id: id, tool_name: tool, content: result });
    }
  }

  /** A terminal command with its JSON result. */
  run(
    text: string,
    command: string,
    output: string,
    exitCode: number | null,
    extra: Record<string, unknown> = {},
  ): void {
    const result: Record<string, unknown> = { output, exit_code: exitCode, error: null };
    if (exitCode === null) delete result.exit_code;
    this.call(text, "terminal", { command, ...extra }, JSON.stringify(result));
  }

  /**
   * A `terminal` call started in the background, with the start notice Hermes answers at once (its
   * exit code 0 says the job started) naming the job's process `session`.
   */
  background(text: string, command: string, session: string, extra: Record<string, unknown>): void {
    const notice = {
      output: "Background process started",
      session_id: session,
      exit_code: 0,
      error: null,
    };
    this.call(text, "terminal", { command, background: true, ...extra }, JSON.stringify(notice));
  }

  /** A `process` action on a background session, with its JSON result. */
  process(action: string, session: string, result: Record<string, unknown>): void {
    this.call("", "process", { action, session_id: session }, JSON.stringify(result));
  }

  #push(row: ScriptRow): void {
    this.rows.push({ ...row, _row_id: this.#rowId++ });
  }
}
