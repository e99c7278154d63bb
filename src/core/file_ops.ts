import { commandAsRun, commandOf } from "./command.ts";
import { type CommandFileChange, commandFiles } from "./command_files.ts";
import type { ToolEvent } from "./events.ts";
import { READ_FILE_TOOL, TERMINAL_TOOL } from "./hermes.ts";
import { isBlocked, isFailure } from "./outcome_words.ts";
import { remembered } from "./remembered.ts";

/** One operation on one path, as a file tool did it, or Hermes saving a result to it. */
export interface FileOp {
  readonly path: string;
  /**
   * `read`, `written`, `modified (patched)`, `searched` or `deleted`, ` (failed)` when it failed;
   * `output saved` for a result Hermes saved to the path.
   */
  readonly op: string;
  readonly event: ToolEvent;
  /** Whether the result's row shows the operation (a saved output), not the call's. */
  readonly inResult?: true;
}

const TOOL_OPS: Readonly<Record<string, string>> = {
  [READ_FILE_TOOL]: "read",
  write_file: "written",
  patch: "modified (patched)",
  search_files: "searched",
};
const V4A_FILE = /^\*\*\* (Update|Add|Delete) File: (.+)$/gm;
const V4A_OPS: Readonly<Record<string, string>> = {
  Update: "modified (patched)",
  Add: "written",
  Delete: "deleted",
};
// How a change a command line made is named: by what it did, and that a command did it.
const COMMAND_OPS: Readonly<Record<CommandFileChange, string>> = {
  modified: "modified (command)",
  deleted: "deleted (command)",
};
const LONGEST_PATH = 4096;
const FAILED = " (failed)";
/** The operation of a result Hermes saved to a file. */
export const SAVED_OUTPUT = "output saved";

/** Every word an operation is named with. */
export const FILE_OPERATION_WORDS = [
  ...Object.values(TOOL_OPS),
  ...Object.values(V4A_OPS),
  ...Object.values(COMMAND_OPS),
  FAILED,
  SAVED_OUTPUT,
].join(" ");

/**
 * The file operations of one tool event: the paths a file tool (read_file, write_file, patch,
 * search_files) worked on, from its arguments, the headers of a V4A patch, or the pruning stub
 * when its call is not in the window; the files a terminal command line edited in place or removed
 * (`commandFiles`), marked `(command)`, unless it was refused. A terminal's working directory is
 * no file it touched. A failed operation is marked `(failed)`. Any tool's result Hermes saved to a
 * file because it was too large names that file, as `output saved`.
 */
export function fileOps(event: ToolEvent): readonly FileOp[] {
  return remembered(OPS, event, () => {
    const saved = event.outcome.saved;
    const savedOp: FileOp[] = saved === undefined || saved.path.length > LONGEST_PATH
      ? []
      : [{ path: saved.path, op: SAVED_OUTPUT, event, inResult: true }];
    return [...toolOps(event), ...commandOps(event), ...savedOp];
  });
}

// Each event's operations, told once for all who ask (Relevant Files, each layout of the log).
const OPS = new WeakMap<ToolEvent, readonly FileOp[]>();

/**
 * The files a terminal call's command line changed, as {@linkcode fileOps} names them (none from
 * a line Hermes kept only the start of).
 */
function commandOps(event: ToolEvent): FileOp[] {
  const command = commandOf(event);
  // A line refused or awaiting approval never ran.
  if (command?.tool !== TERMINAL_TOOL || command.truncated || isBlocked(event.outcome)) return [];
  const failed = isFailure(event.outcome) ? FAILED : "";
  // The line as it ran: a file it names from its working directory is that directory's.
  return commandFiles(commandAsRun(command))
    .filter((file) => file.path.length <= LONGEST_PATH)
    .map((file) => ({ path: file.path, op: COMMAND_OPS[file.change] + failed, event }));
}

/** The operations a file tool did, as {@linkcode fileOps} describes them. */
function toolOps(event: ToolEvent): FileOp[] {
  const { name, args } = event.call;
  const toolOp = TOOL_OPS[name];
  if (toolOp === undefined) return [];
  const ops: FileOp[] = [];
  const failed = isFailure(event.outcome) ? FAILED : "";
  const add = (path: unknown, op: string) => {
    if (typeof path === "string" && path.trim() !== "" && path.length <= LONGEST_PATH) {
      ops.push({ path: path.trim(), op: op + failed, event });
    }
  };
  add(args.path ?? args.file_path, toolOp);
  if (name === "patch" && typeof args.patch === "string") {
    for (const match of args.patch.matchAll(V4A_FILE)) {
      add(match[2], V4A_OPS[match[1] as string] as string);
    }
  }
  const stub = event.outcome.stub;
  if (ops.length === 0 && stub?.kind === "file") add(stub.path, toolOp);
  return ops;
}
