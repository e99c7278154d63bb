import type { ToolEvent } from "./events.ts";
import { isFailure } from "./outcome_words.ts";

/** One operation on one path, as a file tool did it. */
export interface FileOp {
  readonly path: string;
  /** `read`, `written`, `modified (patched)`, `searched` or `deleted`, ` (failed)` when it failed. */
  readonly op: string;
  readonly event: ToolEvent;
}

const TOOL_OPS: Readonly<Record<string, string>> = {
  read_file: "read",
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
const LONGEST_PATH = 4096;
const FAILED = " (failed)";

/** Every word an operation is named with. */
export const FILE_OPERATION_WORDS = [...Object.values(TOOL_OPS), ...Object.values(V4A_OPS), FAILED]
  .join(" ");

/**
 * The file operations of one tool event: the paths a file tool (read_file, write_file, patch,
 * search_files) worked on, from its arguments, the headers of a V4A patch, or the pruning stub
 * when its call is not in the window. Other tools' paths (a terminal's working directory) are not
 * files it touched. A failed operation is marked `(failed)`.
 */
export function fileOps(event: ToolEvent): FileOp[] {
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
