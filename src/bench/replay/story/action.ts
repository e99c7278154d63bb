/**
 * One tool action of a story: the call the scripted model makes, worked out when the request that
 * asks for it arrives (the tools this Hermes offers decide between a direct and a deferred call;
 * a later call may read an earlier result, as a background job's id), and what the stored result
 * must show for the story to have happened as written.
 *
 * @module
 */

/** A tool call as the model sends it. */
export interface ToolCallRequest {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** What the request in front of the model offers and shows, for working out a call. */
export interface CallContext {
  /** Whether the request offers a tool of this name. */
  offers(tool: string): boolean;
  /** The text of an earlier step's result, when the request still holds it. */
  resultOf(step: number): string | undefined;
  /** The absolute path of the project the session works on. */
  readonly projectDir: string;
}

/** How a file tool touched a path. */
export type FileOperation = "read" | "written" | "patched" | "searched";

/** A project path a call touches, and how. */
export interface FileTouch {
  readonly path: string;
  readonly operation: FileOperation;
}

/** What the stored result of an action shows, when the story happened as written. */
export interface ExpectedRecord {
  /** The `exit_code` the result's JSON carries (a job's own for a process wait). */
  readonly exitCode?: number;
  /** Texts the result contains. */
  readonly shows?: readonly string[];
  /** Hermes replaced the result with a `<persisted-output>` block. */
  readonly persisted?: boolean;
  readonly files?: readonly FileTouch[];
}

/** One action of the catalogue, ready to be placed in a story. */
export interface ToolAction {
  /** The catalogue entry it came from, e.g. `terminal.background` or `patch.v4a`. */
  readonly kind: string;
  /** The call to make in `context`. */
  call(context: CallContext): ToolCallRequest;
  readonly expect: ExpectedRecord;
}
