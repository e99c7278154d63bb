/**
 * The catalogue of Hermes tool actions a story is composed of. Each entry builds a
 * {@linkcode ToolAction}: the call as the model makes it on the Hermes in front of it (a tool
 * this release defers is reached through `tool_call`), and what its stored result shows.
 *
 * Tool names and argument shapes are those of Hermes's own schemas (`tools/*.py` of the
 * releases): `terminal` (`command`, `workdir`, `timeout`, `background`, `notify`), `process` or
 * the deferred `process_manage` (`action`, `session_id`, `timeout`), `patch` (replace mode, or
 * `mode: "patch"` with a V4A patch), `write_file`, `read_file`, `search_files`, `execute_code`,
 * `delegate_task` (`tasks`), `memory`, `todo` or the deferred `todo_list`, `skill_view`.
 *
 * @module
 */
import { join } from "node:path";
import type {
  CallContext,
  ExpectedRecord,
  FileOperation,
  FileTouch,
  ToolAction,
  ToolCallRequest,
} from "./action.ts";
import { shellWord } from "./shell_word.ts";

/** A direct call of `name`, or its deferred form through `tool_call` when it is not offered. */
function direct(
  context: CallContext,
  names: readonly string[],
  deferred: string,
  args: Record<string, unknown>,
): ToolCallRequest {
  const offered = names.find((name) => context.offers(name));
  if (offered !== undefined) return { name: offered, arguments: args };
  return { name: "tool_call", arguments: { calls: [{ name: deferred, arguments: args }] } };
}

function action(
  kind: string,
  call: (context: CallContext) => ToolCallRequest,
  expect: ExpectedRecord,
): ToolAction {
  return { kind, call, expect };
}

function fixed(
  kind: string,
  name: string,
  args: Record<string, unknown>,
  expect: ExpectedRecord,
): ToolAction {
  return action(kind, () => ({ name, arguments: args }), expect);
}

/** Options of a foreground `terminal` call. */
export interface TerminalOptions {
  /** Working directory for this command only, relative to the project (sent as absolute). */
  readonly workdir?: string;
  /** Seconds before Hermes stops the command (it then reports exit 124). */
  readonly timeout?: number;
}

/**
 * A foreground command. `expect.exitCode` says how it ends; a non-zero code a tool uses for an
 * answer (`grep` without a match, `diff` with differences, `test` false) makes it an
 * `terminal.expected-nonzero` action.
 */
export function terminal(
  command: string,
  expect: ExpectedRecord,
  options: TerminalOptions = {},
): ToolAction {
  const kind = expect.exitCode === 124
    ? "terminal.timeout"
    : expect.exitCode !== undefined && expect.exitCode !== 0
    ? "terminal.failing"
    : "terminal";
  const { workdir, ...rest } = options;
  return action(kind, (context) => ({
    name: "terminal",
    arguments: {
      command,
      ...(workdir !== undefined ? { workdir: join(context.projectDir, workdir) } : {}),
      ...rest,
    },
  }), expect);
}

/** A command whose non-zero exit is an answer, not a failure (`grep`, `diff`, `test`). */
export function expectedNonZero(
  command: string,
  exitCode: number,
  shows: readonly string[] = [],
): ToolAction {
  return fixed("terminal.expected-nonzero", "terminal", { command }, { exitCode, shows });
}

/** A command started in the background; Hermes answers at once with the job's session id. */
export function backgroundTerminal(
  command: string,
  options: { notify?: boolean } = {},
): ToolAction {
  return fixed(
    "terminal.background",
    "terminal",
    { command, background: true, ...(options.notify ? { notify: true } : {}) },
    { exitCode: 0, shows: ["Background process started"] },
  );
}

const PROCESS_SESSION = /"session_id"\s*:\s*"(proc_[A-Za-z0-9]+)"/;

/** The background job id in a `terminal` result (`proc_…`), or a placeholder when it is gone. */
function backgroundSessionId(result: string | undefined): string {
  return PROCESS_SESSION.exec(result ?? "")?.[1] ?? "proc_missing";
}

/**
 * A `process` action (`wait`, `poll`, `log`, `kill`) on the job step `startStep` started, called
 * directly where Hermes offers `process`, else as the deferred `process_manage`. `expect` is what
 * the job's own end shows (`"status": "exited"`, its exit code).
 */
export function processAction(
  verb: "wait" | "poll" | "log" | "kill",
  startStep: number,
  expect: ExpectedRecord,
  options: { timeout?: number } = {},
): ToolAction {
  return action(`process.${verb}`, (context) => {
    const args = {
      action: verb,
      session_id: backgroundSessionId(context.resultOf(startStep)),
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    };
    return direct(context, ["process", "process_manage"], "process_manage", args);
  }, expect);
}

function touches(path: string, operation: FileOperation): readonly FileTouch[] {
  return [{ path, operation }];
}

/** `read_file` of a project path, a page of it when `offset`/`limit` are given. */
export function readFile(
  path: string,
  options: { offset?: number; limit?: number; shows?: readonly string[] } = {},
): ToolAction {
  const { shows, ...page } = options;
  return fixed("read_file", "read_file", { path, ...page }, {
    files: touches(path, "read"),
    ...(shows ? { shows } : {}),
  });
}

const SAVED_PATH = /Full output saved to: (\S+)/;

/** The spillover path in a `<persisted-output>` block, or a placeholder when it is gone. */
function persistedPath(result: string | undefined): string {
  return SAVED_PATH.exec(result ?? "")?.[1] ?? "persisted-output-missing.txt";
}

/**
 * `execute_code` on the file Hermes saved step `spillStep`'s oversized output to (Hermes's own
 * advice for a result it persisted): `code` gets the saved path.
 */
export function executeCodeOnPersisted(
  spillStep: number,
  code: (path: string) => string,
  shows: readonly string[],
): ToolAction {
  return action("execute_code.persisted", (context) => ({
    name: "execute_code",
    arguments: { code: code(persistedPath(context.resultOf(spillStep))) },
  }), { shows });
}

/** `write_file` of a new project file. */
export function writeFile(path: string, content: string): ToolAction {
  return fixed("write_file", "write_file", { path, content }, { files: touches(path, "written") });
}

/** `patch` in replace mode: `old` must occur once in `path`. */
export function patchReplace(path: string, old: string, replacement: string): ToolAction {
  return fixed("patch.replace", "patch", { path, old_string: old, new_string: replacement }, {
    files: touches(path, "patched"),
  });
}

/** One file's change in a V4A patch: the lines to find and their replacement. */
export interface V4aChange {
  readonly path: string;
  /** Unchanged lines the hunk starts after. */
  readonly context: readonly string[];
  readonly remove: readonly string[];
  readonly add: readonly string[];
}

/** The V4A text (`*** Begin Patch` … `*** End Patch`) of `changes`. */
export function v4aText(changes: readonly V4aChange[]): string {
  const lines = ["*** Begin Patch"];
  for (const change of changes) {
    lines.push(`*** Update File: ${change.path}`, "@@");
    lines.push(...change.context.map((line) => ` ${line}`));
    lines.push(...change.remove.map((line) => `-${line}`), ...change.add.map((line) => `+${line}`));
  }
  lines.push("*** End Patch");
  return lines.join("\n");
}

/** `patch` with a V4A multi-file patch (`mode: "patch"`); the result lists every file. */
export function patchV4a(changes: readonly V4aChange[]): ToolAction {
  return fixed("patch.v4a", "patch", { mode: "patch", patch: v4aText(changes) }, {
    files: changes.map((change) => ({ path: change.path, operation: "patched" as const })),
  });
}

/** `search_files` for a regular expression in the contents below `path`. */
export function searchFiles(
  pattern: string,
  path: string,
  shows: readonly string[] = [],
): ToolAction {
  return fixed("search_files", "search_files", { pattern, path, target: "content" }, {
    files: touches(path, "searched"),
    shows,
  });
}

/** `execute_code`: Python run in Hermes's kernel; `shows` is what it prints. */
export function executeCode(code: string, shows: readonly string[]): ToolAction {
  return fixed("execute_code", "execute_code", { code }, { shows });
}

/** `delegate_task` with one task; the sub-agent's answer comes back in the result. */
export function delegateTask(goal: string, context: string, shows: readonly string[]): ToolAction {
  return fixed("delegate_task", "delegate_task", { tasks: [{ goal, context }] }, { shows });
}

/** `memory` add to the agent's notes (`memory`) or the user profile (`user`). */
export function memoryAdd(target: "memory" | "user", content: string): ToolAction {
  return fixed("memory", "memory", { action: "add", target, content }, {
    shows: ["Entry added"],
  });
}

/** One item of a `todo` list. */
export interface TodoItem {
  readonly id: string;
  readonly content: string;
  readonly status: "pending" | "in_progress" | "completed" | "cancelled";
}

/** `todo` (or the deferred `todo_list`) replacing the task list with `items`. */
export function todoWrite(items: readonly TodoItem[]): ToolAction {
  return action(
    "todo",
    (context) => direct(context, ["todo", "todo_list"], "todo_list", { todos: items }),
    { shows: items.map((item) => item.content) },
  );
}

/** `skill_view` of an installed skill. */
export function skillView(name: string, shows: readonly string[]): ToolAction {
  return fixed("skill_view", "skill_view", { name }, { shows });
}

/** A commit of every tracked change (`git commit -am`); its output names the new commit. */
export function gitCommit(message: string, shows: readonly string[]): ToolAction {
  return fixed("git.commit", "terminal", { command: `git commit -am ${shellWord(message)}` }, {
    exitCode: 0,
    shows,
  });
}
