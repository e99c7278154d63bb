/**
 * The recall oracle: the facts a summary of a window should carry, read from the window's rows
 * by rules of its own (nothing here comes from the projector).
 *
 * What it counts, and what it cannot know:
 * - A command is a `terminal` call's `command`, an `execute_code` call's `code`, or a `process`
 *   call's action on its session (`process kill proc_1`); its identity is the tool, the full text
 *   and the `workdir` argument when given. A call through Hermes's `tool_call` bridge with one
 *   entry is that entry's call. Each call is one run. A
 *   run's exit code is the integer `exit_code` of its JSON result, or the `-> exit N` of Hermes's
 *   terminal pruning stub; any other result (no result in the window, `exit ?`, an output cleared
 *   or deduplicated, a result without `exit_code`) leaves the exit unknown.
 * - A background `terminal` call starts a job, named by its result's `session_id`; the start
 *   says nothing of the job's exit. A `process` call that waits on, polls, reads or kills a job
 *   started in the window is a run of the job's command, its exit the `exit_code` of a result that
 *   says the job `exited`; each start is a command of its own. A job started before the window
 *   is the command `process ID`. A command's final
 *   exit is its last run's, unknown when that run's is: such a command counts for presence but
 *   its outcome is not checkable.
 * - Files: `read_file` (read), `write_file` (written), `patch` (modified; a V4A patch's
 *   `*** Update/Add/Delete File:` headers name modified, written, deleted paths) and
 *   `search_files` (searched), by their `path` argument; the file any tool's result says
 *   Hermes saved its whole output to (`<persisted-output>` … `Full output saved to: PATH`); and
 *   the files a `terminal` command that ran (its result holds an exit code) edited in place with
 *   `sed -i`/`perl -i` (modified) or removed with `rm` (deleted), as its words name them (no glob,
 *   variable or home directory; a here-document's body is no command), from the directory it ran
 *   in when its `workdir` or a `cd` before names it absolutely.
 * - Error names: see {@linkcode raisedNames}, read from the output, stderr and error fields of
 *   failed results only — a JSON result with a non-zero `exit_code`, a non-empty `error` or
 *   `success: false` — and the error line a terminal command printed although it exited 0 (see
 *   {@linkcode printedError}). A pruning stub keeps no output, so a stubbed result contributes no
 *   name. These readings are the oracle's own, written apart from the projector's error lines and
 *   narrower than them (exception classes, a program's last report): NAMES is a differential
 *   check of the two readings, not ground truth.
 * - Requests: user rows whose text, trimmed, is not empty and does not start with `[` (Hermes
 *   writes its own notes to user rows that way), and is more than a reply that assents, approves
 *   or thanks (`ok`, `yes, approve it`); a user row repeating an earlier one's text is that
 *   request (a copy Hermes stored after a compaction, or the same words asked again). Hermes's
 *   restatement of a request after a compaction (`[STILL IN PROGRESS …]` and the request's words)
 *   is that request: a copy where the window holds it.
 * - A call stored again after a compaction (same id and timestamp as an earlier call) is a copy,
 *   not a run: its rows cite the run it copies. Calls whose arguments are not a JSON object and
 *   results whose call is not in the window are counted, never guessed at.
 *
 * @module
 */
import { jsonObject } from "../../compaction/json_object.ts";
import { printedError } from "./printed_error.ts";
import { raisedNames } from "./raised_names.ts";
import { readWindowRows, type WindowCall, type WindowRows } from "./window_rows.ts";

/** One run of a command: where it was called and answered, and its exit code when recorded. */
export interface CommandRun {
  readonly callRef: string;
  readonly resultRef?: string;
  readonly exit?: number;
  /** Rows that store this run's call or result again after a compaction. */
  readonly copies?: readonly string[];
}

/** A distinct command and every run of it, in order. */
export interface CommandFact {
  readonly tool: CommandTool;
  readonly text: string;
  readonly workdir?: string;
  /** Whether some run was started in the background (`background: true`). */
  readonly background: boolean;
  readonly runs: readonly CommandRun[];
  /** The last run's exit code; absent when the record does not hold it. */
  readonly finalExit?: number;
  /** Whether some run exited with a non-zero code. */
  readonly everFailed: boolean;
}

/** The tools whose calls are commands. */
export type CommandTool = "terminal" | "execute_code" | "process";

/** What a file tool did to a path. */
export type FileOperation = "read" | "written" | "modified" | "searched" | "deleted" | "saved";

/** A path and every operation done to it, first-seen order. */
export interface FileFact {
  readonly path: string;
  readonly operations: readonly FileOperation[];
}

/** An error name and the first result row that reported it raised. */
export interface ErrorNameFact {
  readonly name: string;
  readonly firstRef: string;
}

/** A request of the user: the row that made it, and the rows that store it again. */
export interface RequestFact {
  readonly ref: string;
  readonly copies?: readonly string[];
}

/** What the oracle could not read, or read as a copy, and left out of the facts. */
export interface UnreadCounts extends Pick<WindowRows, "orphanResults" | "repeatedCalls"> {
  /** Command calls whose arguments could not be read. */
  readonly unreadableCalls: number;
}

/** The checkable facts of one window. */
export interface WindowFacts {
  readonly commands: readonly CommandFact[];
  readonly files: readonly FileFact[];
  readonly errorNames: readonly ErrorNameFact[];
  readonly requests: readonly RequestFact[];
  readonly unread: UnreadCounts;
}

const FILE_TOOLS: Readonly<Record<string, FileOperation>> = {
  read_file: "read",
  write_file: "written",
  patch: "modified",
  search_files: "searched",
};
const V4A_HEADER = /^\*\*\* (Update|Add|Delete) File: (.+)$/gm;
const V4A_OPERATIONS: Readonly<Record<string, FileOperation>> = {
  Update: "modified",
  Add: "written",
  Delete: "deleted",
};
const TERMINAL_STUB = /^\[terminal\] ran `[\s\S]*` -> exit (-?\d+|\?), [\d,]+ lines? output\s*$/;

// The words of a reply that only assents, approves or thanks (`yes, approve it`, `ok go ahead`).
const ASSENT_WORDS: ReadonlySet<string> = new Set(
  ("ok okay k y yes yep yeah sure right fine great good nice perfect cool please thanks thank " +
    "you ty sounds lgtm go ahead on continue proceed do it that so approve approved confirm " +
    "confirmed allow").split(" "),
);
// The most words such a reply has.
const ASSENT_MOST_WORDS = 8;

/** Whether a user's text is a reply that only assents, approves or thanks: no request. */
function isAssent(text: string): boolean {
  const words = text.toLowerCase().split(/[^a-z]+/).filter((word) => word !== "");
  return words.length > 0 && words.length <= ASSENT_MOST_WORDS &&
    words.every((word) => ASSENT_WORDS.has(word));
}

/** Lists the facts of a window given as OpenAI-style messages. */
export function windowFacts(rows: readonly unknown[]): WindowFacts {
  const read = readWindowRows(rows);
  const commands = new Map<string, CommandDraft>();
  const jobs = new Map<string, CommandDraft>();
  const files = new Map<string, FileOperation[]>();
  const errorNames = new Map<string, string>();
  let unreadableCalls = 0;
  for (const call of read.calls) {
    const tool = commandTool(call.tool);
    const reported = tool === "process" ? reportedJob(call) : undefined;
    if (reported !== undefined) {
      // A job started before the window is the command `process ID`.
      const job = jobs.get(reported) ??
        { tool: "process", text: `process ${reported}`, background: false, runs: [] };
      if (!jobs.has(reported)) {
        jobs.set(reported, job);
        commands.set(JSON.stringify(["job", reported]), job);
      }
      job.runs.push(runOf(call, jobExit(call.result?.text ?? "")));
    } else if (tool !== undefined) {
      const text = commandText(tool, call.args);
      if (text === undefined) {
        unreadableCalls++;
      } else {
        const background = call.args?.background === true;
        const started = background ? startedJob(call.result?.text ?? "") : undefined;
        const workdir = typeof call.args?.workdir === "string" ? call.args.workdir : undefined;
        const key = JSON.stringify([tool, text, workdir ?? null, started ?? null]);
        const draft = commands.get(key) ?? {
          tool,
          text,
          ...(workdir === undefined ? {} : { workdir }),
          background: false,
          runs: [],
        };
        commands.set(key, draft);
        draft.runs.push(runOf(call, background ? undefined : exitOf(call.result?.text ?? "")));
        if (background) draft.background = true;
        if (started !== undefined) jobs.set(started, draft);
      }
    }
    for (const [path, operation] of fileOperations(call)) {
      const operations = files.get(path) ?? [];
      files.set(path, operations);
      if (!operations.includes(operation)) operations.push(operation);
    }
    if (call.result) {
      const names = raisedNames(failedOutput(call.result.text));
      const printed = call.tool === "terminal" ? printedAtExitZero(call) : undefined;
      for (const name of printed === undefined ? names : [...names, printed]) {
        if (!errorNames.has(name)) errorNames.set(name, call.result.ref);
      }
    }
  }
  return {
    commands: [...commands.values()].map((draft) => {
      const finalExit = draft.runs.at(-1)?.exit;
      return {
        ...draft,
        ...(finalExit === undefined ? {} : { finalExit }),
        everFailed: draft.runs.some((run) => run.exit !== undefined && run.exit !== 0),
      };
    }),
    files: [...files].map(([path, operations]) => ({ path, operations })),
    errorNames: [...errorNames].map(([name, firstRef]) => ({ name, firstRef })),
    requests: read.users
      .filter((user) =>
        user.text.trim() !== "" && !user.text.trimStart().startsWith("[") && !isAssent(user.text)
      )
      .map(({ ref, copies }) => (copies ? { ref, copies } : { ref })),
    unread: {
      unreadableCalls,
      orphanResults: read.orphanResults,
      repeatedCalls: read.repeatedCalls,
    },
  };
}

interface CommandDraft {
  readonly tool: CommandTool;
  readonly text: string;
  readonly workdir?: string;
  background: boolean;
  readonly runs: CommandRun[];
}

function commandTool(tool: string): CommandTool | undefined {
  if (tool === "terminal" || tool === "execute_code") return tool;
  return tool === "process" || tool === "process_manage" ? "process" : undefined;
}

/** A command's full text: the command, the code, or `process ACTION SESSION`. */
function commandText(
  tool: CommandTool,
  args: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  if (tool === "process") {
    const parts = [args?.action, args?.session_id].filter((part) => typeof part === "string");
    return parts.length === 0 ? undefined : ["process", ...parts].join(" ");
  }
  const text = args?.[tool === "terminal" ? "command" : "code"];
  return typeof text === "string" && text.trim() !== "" ? text : undefined;
}

/** The error line a terminal call printed although its JSON result says it exited 0. */
function printedAtExitZero(call: WindowCall): string | undefined {
  const result = jsonObject(call.result?.text ?? "");
  const command = call.args?.command;
  if (result.exit_code !== 0 || typeof command !== "string" || typeof result.output !== "string") {
    return undefined;
  }
  return printedError(command, result.output);
}

/** The job a background start's result names. */
function startedJob(text: string): string | undefined {
  const id = jsonObject(text).session_id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** The job a `process` call waits on, polls, reads or kills. */
function reportedJob(call: WindowCall): string | undefined {
  const action = call.args?.action;
  const id = call.args?.session_id;
  return typeof action === "string" && ["wait", "poll", "log", "kill"].includes(action) &&
      typeof id === "string"
    ? id
    : undefined;
}

/** A job's exit code, when a process result says it exited. */
function jobExit(text: string): number | undefined {
  const result = jsonObject(text);
  return ["exited", "already_exited"].includes(String(result.status)) ? exitOf(text) : undefined;
}

function runOf(call: WindowCall, exit: number | undefined): CommandRun {
  return {
    callRef: call.callRef,
    ...(call.result ? { resultRef: call.result.ref } : {}),
    ...(exit === undefined ? {} : { exit }),
    ...(call.copies ? { copies: call.copies } : {}),
  };
}

function exitOf(text: string): number | undefined {
  const result = jsonObject(text);
  if (typeof result.exit_code === "number" && Number.isInteger(result.exit_code)) {
    return result.exit_code;
  }
  const stub = TERMINAL_STUB.exec(text);
  return stub && stub[1] !== "?" ? Number(stub[1]) : undefined;
}

/** The output of a failed JSON result, else the empty string. */
function failedOutput(text: string): string {
  const result = jsonObject(text);
  const failed = (typeof result.exit_code === "number" && result.exit_code !== 0) ||
    (typeof result.error === "string" && result.error.trim() !== "") ||
    result.success === false;
  if (!failed) return "";
  return [result.output, result.stderr, result.error]
    .filter((part): part is string => typeof part === "string")
    .join("\n");
}

// Hermes's block for a result too large to keep, and the line naming the file it went to.
const PERSISTED = /^<persisted-output>/;
const SAVED_TO = /^Full output saved to: (.+)$/m;

function fileOperations(call: WindowCall): [string, FileOperation][] {
  const text = call.result?.text ?? "";
  const saved = PERSISTED.test(text) ? SAVED_TO.exec(text)?.[1]?.trim() : undefined;
  const found: [string, FileOperation][] = saved ? [[saved, "saved"]] : [];
  if (
    call.tool === "terminal" && typeof call.args?.command === "string" && exitOf(text) !== undefined
  ) {
    const workdir = typeof call.args.workdir === "string" ? call.args.workdir : undefined;
    found.push(...changedByCommand(call.args.command, workdir));
  }
  const operation = FILE_TOOLS[call.tool];
  if (operation === undefined || !call.args) return found;
  const path = call.args.path;
  if (typeof path === "string" && path.trim() !== "") found.push([path.trim(), operation]);
  const patch = call.args.patch;
  if (call.tool === "patch" && typeof patch === "string") {
    for (const match of patch.matchAll(V4A_HEADER)) {
      found.push([(match[2] as string).trim(), V4A_OPERATIONS[match[1] as string]!]);
    }
  }
  return found;
}

// A shell word (quotes kept, to be removed after), or an operator between steps.
const SHELL_TOKEN = /(?:'[^']*'|"(?:\\.|[^"\\])*"|[^\s'"&|;<>]|\d?>>?|<<?)+|&&|\|\||[|;&\n]/g;
const HERE_OPENING = /<<-?\s*['"]?(\w+)['"]?/;
const NAMES_NO_FILE = /[*?[\]$~{}`]|\$\(/;

/** Where a `cd` to `to` from `from` leads, while both say so absolutely. */
function cdTo(from: string | undefined, to: string): string | undefined {
  if (to.startsWith("/")) return to;
  return from === undefined || /^[~$-]/.test(to) ? undefined : joinedPath(from, to);
}

/** `path` from the absolute directory `from`, `.` and `..` steps taken. */
function joinedPath(from: string, path: string): string {
  const parts = from.split("/");
  for (const part of path.split("/")) {
    if (part === "..") {
      if (parts.length > 1) parts.pop();
    } else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.length === 1 ? "/" : parts.join("/");
}

/**
 * The files a command line edits in place or removes, by the oracle's own reading of its words:
 * a path it names from an absolute directory (its working directory, a `cd` before) is that
 * directory's.
 */
function changedByCommand(command: string, workdir?: string): [string, FileOperation][] {
  // Here-documents' bodies are data.
  const lines: string[] = [];
  let closing: string | undefined;
  for (const line of command.split("\n")) {
    if (closing !== undefined) {
      if (line.trim() === closing) closing = undefined;
      continue;
    }
    lines.push(line);
    closing = HERE_OPENING.exec(line)?.[1];
  }
  const steps: string[][] = [[]];
  for (const token of lines.join("\n").match(SHELL_TOKEN) ?? []) {
    if (/^(?:&&|\|\||[|;&\n])$/.test(token)) steps.push([]);
    else steps.at(-1)!.push(token);
  }
  const found: [string, FileOperation][] = [];
  let directory = workdir?.startsWith("/") ? workdir : undefined;
  for (const step of steps) {
    // Redirections and what they name are not operands.
    const words: string[] = [];
    for (let at = 0; at < step.length; at++) {
      const word = step[at]!;
      if (/^\d?(?:>>?|<<?)$/.test(word)) at++;
      else if (!/^\d?(?:>>?|<<?)/.test(word)) {
        words.push(word.replace(/^'(.*)'$|^"(.*)"$/s, "$1$2"));
      }
    }
    while (words.length > 0 && /^\w+=/.test(words[0]!)) words.shift();
    const program = words[0]?.split("/").at(-1);
    const rest = words.slice(1);
    if (program === "cd") {
      directory = cdTo(directory, rest[0] ?? "~");
      continue;
    }
    const files = rest.filter((word) => !word.startsWith("-"));
    let operation: FileOperation | undefined;
    let named = files;
    if (program === "rm") operation = "deleted";
    else if (
      (program === "sed" && rest.some((word) => /^-\w*i|^--in-place/.test(word))) ||
      (program === "perl" && rest.some((word) => /^-\w*i/.test(word)))
    ) {
      operation = "modified";
      // The script is the first word that is no option, unless -e or -f gave it.
      const given = rest.findIndex((word) => /^-(?:e|f|-expression|-file)$/.test(word));
      named = given === -1 ? files.slice(1) : files.filter((word) => word !== rest[given + 1]);
    }
    if (operation === undefined) continue;
    for (const path of named) {
      if (path === "" || NAMES_NO_FILE.test(path)) continue;
      found.push([directory === undefined ? path : joinedPath(directory, path), operation]);
    }
  }
  return found;
}
