import type { ToolEvent } from "./events.ts";
import { isFailure } from "./outcome.ts";

/** One operation on one path, as a tool call did it. */
export interface FileOp {
  readonly path: string;
  /** `read`, `written`, `modified (patched)`, `searched`, `deleted`, `workdir`, `output`, `referenced`. */
  readonly op: string;
  readonly event: ToolEvent;
}

const TOOL_OPS: Readonly<Record<string, string>> = {
  read_file: "read",
  write_file: "written",
  patch: "modified (patched)",
  search_files: "searched",
};
const PATH_ARGS: ReadonlyArray<readonly [string, string]> = [
  ["path", "referenced"],
  ["file_path", "referenced"],
  ["output_path", "output"],
  ["workdir", "workdir"],
];
const V4A_FILE = /^\*\*\* (Update|Add|Delete) File: (.+)$/gm;
const V4A_OPS: Readonly<Record<string, string>> = {
  Update: "modified (patched)",
  Add: "written",
  Delete: "deleted",
};

/**
 * The file operations of one tool event: the file tools' own paths (from arguments, V4A patch
 * headers, or the pruning stub when the call is not in the window) and path-like arguments of any
 * tool. A failed operation is marked `(failed)`.
 */
export function fileOps(event: ToolEvent): FileOp[] {
  const { name, args } = event.call;
  const ops: FileOp[] = [];
  const failed = isFailure(event.outcome) ? " (failed)" : "";
  const add = (path: unknown, op: string) => {
    if (typeof path === "string" && path.trim() !== "" && path.length <= 4096) {
      ops.push({ path: path.trim(), op: op + failed, event });
    }
  };
  const toolOp = TOOL_OPS[name];
  if (toolOp !== undefined) {
    const before = ops.length;
    add(args.path ?? args.file_path, toolOp);
    if (name === "patch" && typeof args.patch === "string") {
      for (const match of args.patch.matchAll(V4A_FILE)) {
        add(match[2], V4A_OPS[match[1] as string] as string);
      }
    }
    const stub = event.outcome.stub;
    if (ops.length === before && stub?.kind === "file") add(stub.path, toolOp);
    for (const [key, op] of PATH_ARGS) {
      if (key === "workdir" || key === "output_path") add(args[key], op);
    }
    return ops;
  }
  for (const [key, op] of PATH_ARGS) add(args[key], op);
  return ops;
}
